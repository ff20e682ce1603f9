import type { NextRequest } from 'next/server';
import { cookieSecure } from '../../../lib/config';
import { fail, seeOther } from '../../../lib/respond';
import { asFailure, signIn } from '../../../lib/service';
import { SESSION_COOKIE } from '../../../lib/session';
import { crossSite, secureCookieWouldBeDropped } from '../../../lib/transport';

/** Where a form post goes next: a path of this site only. */
const localPath = (value: unknown) => (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/compare');

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
    response.cookies.set(SESSION_COOKIE, session.token, { httpOnly: true, sameSite: 'lax', secure: cookieSecure(), path: '/', maxAge: session.expiresIn });
    return response;
  } catch (error) {
    return back('refused', asFailure(error).message);
  }
}
