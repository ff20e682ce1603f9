import { sessionState } from '../../../lib/session';
import { ok } from '../../../lib/respond';

/** GET /api/session → {role, expires_at, expired} of the signed-in user; for the header of cached pages. */
export async function GET() {
  const state = await sessionState();
  const session = state.state === 'active' ? state.session : null;
  return ok({
    role: session?.role ?? null,
    expires_at: session ? new Date(session.expiresAt).toISOString() : null,
    expired: state.state === 'expired',
  });
}
