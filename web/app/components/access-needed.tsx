import { currentPath, signInHref } from '../../lib/return-to';
import { sessionState } from '../../lib/session';

/** The page of a visitor an analyst page refuses: not signed in, session expired, or a role without access. */
export async function AccessNeeded() {
  const [state, here] = await Promise.all([sessionState(), currentPath()]);
  const signIn = signInHref(here);
  if (state.state === 'active') {
    return (
      <>
        <h1>Analyst access needed</h1>
        <p>
          You are signed in, but your key’s role ({state.session.role}) cannot use this page: it needs the{' '}
          <strong>analyst</strong> role. <a href={signIn}>Sign in with another key</a>.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{state.state === 'expired' ? 'Your session expired' : 'Analyst access needed'}</h1>
      {state.state === 'expired' ? (
        <p role="alert" data-session-expired>
          Your session ended at {new Date(state.expiredAt).toISOString().slice(11, 16)} UTC after a while without
          activity. <a href={signIn}>Sign in again</a> to go on where you were.
        </p>
      ) : (
        <p>
          Search, comparisons and chat are for signed-in analysts. Get an API key with the analyst role from the
          service’s operator, then <a href={signIn}>sign in</a>.
        </p>
      )}
      <p>
        Company pages are open to everyone: <a href="/companies">browse the companies</a>.
      </p>
    </>
  );
}
