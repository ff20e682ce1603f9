/** The signed-in user: the service's access token, kept in an HttpOnly cookie of this front end. */
import { cookies } from 'next/headers';

export const SESSION_COOKIE = 'fis_web_session';

export interface SignedIn { token: string; role: string; expiresAt: number }

/** Role and expiry read from the token's payload (for display and gating only: the service checks the token itself). */
export function readToken(token: string | undefined): SignedIn | null {
  if (!token) return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { role?: string; exp?: number };
    if (!payload.role || !payload.exp || payload.exp * 1000 < Date.now()) return null;
    return { token, role: payload.role, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

export async function currentSession(): Promise<SignedIn | null> {
  return readToken((await cookies()).get(SESSION_COOKIE)?.value);
}

export const isAnalyst = (session: SignedIn | null): session is SignedIn => session !== null && (session.role === 'analyst' || session.role === 'admin');
