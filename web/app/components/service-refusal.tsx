import type { Refusal } from '../../lib/refusal';

/** The service refused (too many requests, busy, unreachable): said in the page, with when to try again. */
export function ServiceRefusal({ refusal }: { refusal: Refusal }) {
  const wait = refusal.retryAfterSeconds ? `Try again in ${refusal.retryAfterSeconds} s.` : 'Try again in a moment.';
  return (
    <>
      <h1>{refusal.status === 429 ? 'Too many requests just now' : 'The service is not available just now'}</h1>
      <p role="alert" data-refusal={refusal.status} data-retry-after={refusal.retryAfterSeconds ?? ''}>
        {refusal.message} ({refusal.code}). {wait}
      </p>
      <p>
        <a href="">Reload this page</a> · <a href="/companies">Back to the companies</a>
      </p>
    </>
  );
}
