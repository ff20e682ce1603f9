'use client';
/**
 * The header's account corner. Company pages are cached and shared by everyone, so the signed-in state is asked of
 * /api/session by the browser; without JavaScript the header offers "Sign in" (and /signin shows the real state).
 */
import { useEffect, useState } from 'react';

export function AccountNav() {
  const [role, setRole] = useState<string | null>(null);
  useEffect(() => {
    fetch('/api/session', { cache: 'no-store' })
      .then((response) => response.json())
      .then((body: { data?: { role: string | null } }) => setRole(body.data?.role ?? null))
      .catch(() => setRole(null));
  }, []);
  if (!role) return <div className="account"><a href="/signin">Sign in</a></div>;
  return (
    <div className="account" data-signed-in={role}>
      <span>Signed in ({role})</span>
      <form method="post" action="/api/signout"><button type="submit">Sign out</button></form>
    </div>
  );
}
