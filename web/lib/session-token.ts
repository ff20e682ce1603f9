/**
 * The session cookie's token read for display, gating and renewal (the service checks the token itself): active,
 * expired (the cookie outlives its token, so pages can say so), or none.
 */
export const SESSION_COOKIE = 'fis_web_session';
/** The longest a sign-in lasts while its user stays active: 8 hours (docs/web.md, "Sessions"). */
export const SESSION_MAX_SECONDS = 8 * 3600;

export interface SignedIn {
  token: string;
  role: string;
  expiresAt: number;
  issuedAt: number;
}
export type SessionState =
  { state: 'active'; session: SignedIn } | { state: 'expired'; role: string; expiredAt: number } | { state: 'none' };

/** Role and times read from the token's payload (for display, gating and renewal only: the service checks the token). */
export function readSession(token: string | undefined, now = Date.now()): SessionState {
  if (!token) return { state: 'none' };
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      role?: string;
      exp?: number;
      iat?: number;
    };
    if (!payload.role || !payload.exp) return { state: 'none' };
    const expiresAt = payload.exp * 1000;
    if (expiresAt <= now) return { state: 'expired', role: payload.role, expiredAt: expiresAt };
    return {
      state: 'active',
      session: { token, role: payload.role, expiresAt, issuedAt: (payload.iat ?? payload.exp - 900) * 1000 },
    };
  } catch {
    return { state: 'none' };
  }
}

export function readToken(token: string | undefined): SignedIn | null {
  const read = readSession(token);
  return read.state === 'active' ? read.session : null;
}
