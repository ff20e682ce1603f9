/** Analyst-only pages: the session, or a 401 (not signed in) / 403 (signed in with a lesser role) page. */
import { forbidden, unauthorized } from 'next/navigation';
import { currentSession, isAnalyst, type SignedIn } from './session';

export async function requireAnalyst(): Promise<SignedIn> {
  const session = await currentSession();
  if (!session) unauthorized();
  if (!isAnalyst(session)) forbidden();
  return session;
}
