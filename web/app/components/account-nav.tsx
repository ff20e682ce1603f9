'use client';
/**
 * The header's account corner. Company pages are cached and shared by everyone, so the signed-in state is asked of
 * /api/session by the browser. Without JavaScript (and on the pages sent without scripts: the companies) it is an
 * "Account" link to /signin, which shows the real state and signs out. Sign-in leads back to the page the user is
 * on, with its query.
 */
import { useEffect, useState } from 'react';

interface State {
  role: string | null;
  expired: boolean;
  here: string;
}

export function AccountNav() {
  const [state, setState] = useState<State | null>(null);
  useEffect(() => {
    const here = `${location.pathname}${location.search}`;
    fetch('/api/session', { cache: 'no-store' })
      .then((response) => response.json())
      .then((body: { data?: { role: string | null; expired?: boolean } }) =>
        setState({ role: body.data?.role ?? null, expired: body.data?.expired === true, here }),
      )
      .catch(() => setState({ role: null, expired: false, here }));
  }, []);
  if (!state)
    return (
      <div className="account">
        <a href="/signin">Account</a>
      </div>
    );
  const signIn =
    state.here && !state.here.startsWith('/signin')
      ? `/signin?${new URLSearchParams({ next: state.here })}`
      : '/signin';
  if (!state.role)
    return (
      <div className="account">
        {state.expired && <span data-session-expired>Session expired</span>}
        <a href={signIn}>Sign in</a>
      </div>
    );
  return (
    <div className="account" data-signed-in={state.role}>
      <span>Signed in ({state.role})</span>
      <form method="post" action="/api/signout">
        <button type="submit">Sign out</button>
      </form>
    </div>
  );
}
