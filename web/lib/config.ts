/** The front end's settings, read from the environment on the server (see docs/configuration.md, "Web front end"). */

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The service as this server reaches it (API_URL). */
export function serverApiUrl(): string {
  return trimSlash(process.env.API_URL?.trim() || 'http://127.0.0.1:8080');
}

/**
 * The service as a browser reaches it (NEXT_PUBLIC_API_URL), for links to the API. Null when unset: the address this
 * server uses (often 127.0.0.1) is not one a visitor's browser can open, so pages then name the API path instead.
 */
export function publicApiUrl(): string | null {
  const url = process.env.NEXT_PUBLIC_API_URL?.trim();
  return url ? trimSlash(url) : null;
}

/** The session cookie carries Secure unless COOKIE_SECURE is 0/false/no/off (plain-HTTP development only). */
export function cookieSecure(): boolean {
  return !['0', 'false', 'no', 'off'].includes((process.env.COOKIE_SECURE ?? 'true').trim().toLowerCase());
}

/** The front end's own key for its reads (WEB_API_KEY, a forwarding key; `npm start` makes one); anonymous without. */
export function webApiKey(): string | undefined {
  return process.env.WEB_API_KEY?.trim() || undefined;
}
