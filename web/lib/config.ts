/** The front end's settings, read from the environment on the server (see the README's "Web front end" table). */

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The service as this server reaches it (API_URL). */
export function serverApiUrl(): string {
  return trimSlash(process.env.API_URL?.trim() || 'http://127.0.0.1:8080');
}

/** The service as a browser reaches it (NEXT_PUBLIC_API_URL), for links to the API; API_URL when unset. */
export function publicApiUrl(): string {
  return trimSlash(process.env.NEXT_PUBLIC_API_URL?.trim() || serverApiUrl());
}

/** The session cookie carries Secure unless COOKIE_SECURE is 0/false/no/off (plain-HTTP development only). */
export function cookieSecure(): boolean {
  return !['0', 'false', 'no', 'off'].includes((process.env.COOKIE_SECURE ?? 'true').trim().toLowerCase());
}
