import type { NextRequest } from 'next/server';
import { cookieSecure } from '../../../lib/config';
import { fail, seeOther } from '../../../lib/respond';
import { localPath } from '../../../lib/return-to';
import { asFailure, signIn } from '../../../lib/service';
import { RENEWAL_COOKIE, sealRenewal } from '../../../lib/renewal';
import { SESSION_COOKIE, SESSION_MAX_SECONDS } from '../../../lib/session';
import { crossSite, secureCookieWouldBeDropped } from '../../../lib/transport';

/** POST /api/signin (form: api_key, next): the key becomes the service's access token in an HttpOnly cookie. */
export async function POST(request: NextRequest) {
  if (crossSite(request.headers)) return fail(403, 'FORBIDDEN', 'Cross-site form posts are refused');
  const form = await request.formData().catch(() => null);
  const next = localPath(form?.get('next'));
  const back = (error: string, message?: string) =>
    seeOther(`/signin?${new URLSearchParams({ next, error, ...(message ? { message } : {}) })}`);
  if (secureCookieWouldBeDropped(request.headers, cookieSecure())) return back('insecure');
  const apiKey = String(form?.get('api_key') ?? '').trim();
  if (!apiKey) return back('missing');
  try {
    const session = await signIn(apiKey);
    const response = seeOther(next);
    // The cookie outlives the token (so an expired session can say so); the sealed key renews it while in use.
    const cookie = {
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: cookieSecure(),
      path: '/',
      maxAge: SESSION_MAX_SECONDS,
    };
    response.cookies.set(SESSION_COOKIE, session.token, cookie);
    const renewal = sealRenewal({ apiKey, signedInAt: Date.now() });
    if (renewal) response.cookies.set(RENEWAL_COOKIE, renewal, cookie);
    return response;
  } catch (error) {
    return back('refused', asFailure(error).message);
  }
}
