/** A path of this site only, for a sign-in that leads back: never another site, never the sign-in page itself. */
export function localPath(value: unknown, fallback = '/compare'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return fallback;
  return value.startsWith('/signin') || value.startsWith('/api/') ? fallback : value;
}

export const signInHref = (next: string) => `/signin?${new URLSearchParams({ next })}`;
