/**
 * Analyst-only pages: the session, or null after marking the answer 401 (not signed in, or the session expired) or
 * 403 (signed in with a lesser role); the page then shows <AccessNeeded />, which says which and offers a sign-in
 * that leads back to the page with its query.
 */
import { answerWith } from './request-slot';
import { isAnalyst, sessionState, type SignedIn } from './session';

export async function requireAnalyst(): Promise<SignedIn | null> {
  const state = await sessionState();
  if (state.state === 'active' && isAnalyst(state.session)) return state.session;
  answerWith(state.state === 'active' ? 403 : 401);
  return null;
}
