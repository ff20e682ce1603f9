/**
 * Whether a Secure session cookie would survive this request's transport. Browsers drop Secure cookies set over
 * plain HTTP, except on localhost; sign-in must say so instead of "succeeding" without a session.
 */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function secureCookieWouldBeDropped(headers: Headers, cookieSecure: boolean): boolean {
  if (!cookieSecure) return false;
  const proto = (headers.get('x-forwarded-proto') ?? 'http').split(',')[0].trim();
  if (proto === 'https') return false;
  const host = (headers.get('host') ?? '').replace(/:\d+$/, '').toLowerCase();
  return !LOCAL_HOSTS.has(host);
}

export const INSECURE_SIGN_IN =
  'This front end is served over plain HTTP on a network address, and COOKIE_SECURE is on, so your browser would ' +
  'drop the session cookie and you would not stay signed in. Serve the front end over HTTPS (recommended), open it ' +
  'as http://localhost, or, on a trusted network only, start it with COOKIE_SECURE=false.';

/** A form post from another site must not act with this site's cookie. */
export function crossSite(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (!origin || origin === 'null') return false;
  try {
    return new URL(origin).host !== headers.get('host');
  } catch {
    return true;
  }
}
