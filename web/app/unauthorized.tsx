export default function Unauthorized() {
  return (
    <>
      <h1>Analyst access needed</h1>
      <p>Search, comparisons and chat are for signed-in analysts. Get an API key with the analyst role from the service’s operator, then <a href="/signin">sign in</a>.</p>
      <p>Company pages are open to everyone: <a href="/companies">browse the companies</a>.</p>
    </>
  );
}
