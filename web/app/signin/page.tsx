import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { cookieSecure } from '../../lib/config';
import { localPath } from '../../lib/return-to';
import { currentSession } from '../../lib/session';
import { INSECURE_SIGN_IN, secureCookieWouldBeDropped } from '../../lib/transport';

export const metadata: Metadata = { title: 'Sign in' };

const MESSAGES: Record<string, string> = {
  missing: 'Enter an API key.',
  insecure: INSECURE_SIGN_IN,
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { next: asked, error, message } = await searchParams;
  const next = localPath(asked);
  const session = await currentSession();
  const insecure = secureCookieWouldBeDropped(await headers(), cookieSecure());
  const problem =
    error === 'refused'
      ? `Sign-in failed: ${message ?? 'the service refused the key'}`
      : error
        ? MESSAGES[error]
        : null;
  return (
    <>
      <h1>Sign in</h1>
      {session && (
        <p role="status" data-signed-in={session.role}>
          You are signed in as <strong>{session.role}</strong>. Signing in again replaces that session.
        </p>
      )}
      <p>
        Search, comparisons and chat need an API key with the <strong>analyst</strong> role. Ask the service’s operator
        for one (<code>npm run keys -- create --name you --role analyst</code>); company pages are open to everyone.
      </p>
      {insecure && error !== 'insecure' && (
        <p className="notice" data-insecure>
          {INSECURE_SIGN_IN}
        </p>
      )}
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      <form method="post" action="/api/signin" className="filters">
        <input type="hidden" name="next" value={next} />
        <label htmlFor="api_key">
          API key
          <input id="api_key" name="api_key" type="password" autoComplete="off" required size={40} />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {session && (
        <form method="post" action="/api/signout" data-signout>
          <button type="submit">Sign out</button>
        </form>
      )}
    </>
  );
}
