/**
 * Renews the session of an active user: on a request of a signed-in page or route, a token past half its life is
 * exchanged for a new one with the sealed API key, until SESSION_MAX_SECONDS after sign-in. An idle user's token
 * simply expires, and the pages then say so.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { cookieSecure } from './lib/config';
import { openRenewal, RENEWAL_COOKIE } from './lib/renewal';
import { signIn } from './lib/service';
import { readToken, SESSION_COOKIE, SESSION_MAX_SECONDS } from './lib/session-token';

export const config = {
  matcher: ['/search', '/compare', '/chat', '/documents/:path*', '/signin', '/api/chat', '/api/session'],
};

export async function proxy(request: NextRequest) {
  const session = readToken(request.cookies.get(SESSION_COOKIE)?.value);
  const now = Date.now();
  if (!session || session.expiresAt - now > (session.expiresAt - session.issuedAt) / 2) return NextResponse.next();
  const renewal = openRenewal(request.cookies.get(RENEWAL_COOKIE)?.value);
  const endsAt = renewal ? renewal.signedInAt + SESSION_MAX_SECONDS * 1000 : 0;
  if (!renewal || endsAt <= now) return NextResponse.next();
  try {
    const fresh = await signIn(renewal.apiKey);
    request.cookies.set(SESSION_COOKIE, fresh.token);
    const response = NextResponse.next({ request: { headers: request.headers } });
    response.cookies.set(SESSION_COOKIE, fresh.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: cookieSecure(),
      path: '/',
      maxAge: Math.floor((endsAt - now) / 1000),
    });
    return response;
  } catch {
    return NextResponse.next(); // the key was revoked or the service is away: the session ends with its token
  }
}
