'use client';
/** A page whose data could not be fetched (the service down or refusing): say so and offer a retry. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <>
      <h1>Something went wrong</h1>
      <p role="alert">The page could not be built: the financial insights service did not answer or refused the request. Try again in a moment.</p>
      <p><a href="">Reload this page</a> · <button type="button" onClick={reset}>Try again</button> · <a href="/companies">Back to the companies</a></p>
    </>
  );
}
