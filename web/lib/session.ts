/**
 * The signed-in user: the service's access token, kept in an HttpOnly cookie of this front end. The cookie outlives
 * the token (up to the longest session), so a page can tell "your session expired" from "not signed in"; while the
 * user is active the token is renewed (see proxy.ts and renewal.ts) up to SESSION_MAX_SECONDS after sign-in.
 */
import { cookies } from 'next/headers';

export {
  readSession,
  readToken,
  SESSION_COOKIE,
  SESSION_MAX_SECONDS,
  type SessionState,
  type SignedIn,
} from './session-token';
import { readSession, SESSION_COOKIE, type SessionState, type SignedIn } from './session-token';

export async function sessionState(): Promise<SessionState> {
  return readSession((await cookies()).get(SESSION_COOKIE)?.value);
}

export async function currentSession(): Promise<SignedIn | null> {
  const read = await sessionState();
  return read.state === 'active' ? read.session : null;
}

export const isAnalyst = (session: SignedIn | null): session is SignedIn =>
  session !== null && (session.role === 'analyst' || session.role === 'admin');
