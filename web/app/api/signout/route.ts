import type { NextRequest } from 'next/server';
import { cookieSecure } from '../../../lib/config';
import { fail, seeOther } from '../../../lib/respond';
import { RENEWAL_COOKIE } from '../../../lib/renewal';
import { SESSION_COOKIE } from '../../../lib/session';
import { crossSite } from '../../../lib/transport';

/** POST /api/signout: the session cookies are cleared and the visitor lands on the companies. */
export async function POST(request: NextRequest) {
  if (crossSite(request.headers)) return fail(403, 'FORBIDDEN', 'Cross-site form posts are refused');
  const response = seeOther('/companies');
  for (const name of [SESSION_COOKIE, RENEWAL_COOKIE])
    response.cookies.set(name, '', { httpOnly: true, sameSite: 'lax', secure: cookieSecure(), path: '/', maxAge: 0 });
  return response;
}
