import { currentSession } from '../../../lib/session';
import { ok } from '../../../lib/respond';

/** GET /api/session → {role} of the signed-in user, or {role: null}; for the header of cached pages. */
export async function GET() {
  const session = await currentSession();
  return ok({ role: session?.role ?? null, expires_at: session ? new Date(session.expiresAt).toISOString() : null });
}
