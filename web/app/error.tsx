'use client';
/** A page that failed for a reason other than a refusal of the service (those are 429/503 pages): offer a retry. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <>
      <h1>Something went wrong</h1>
      <p role="alert">The page could not be built: an unexpected error. Try again in a moment.</p>
      <p>
        <a href="">Reload this page</a> ·{' '}
        <button type="button" onClick={reset}>
          Try again
        </button>{' '}
        · <a href="/companies">Back to the companies</a>
      </p>
    </>
  );
}
