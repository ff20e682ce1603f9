export default function Forbidden() {
  return (
    <>
      <h1>Analyst access needed</h1>
      <p>You are signed in, but your key’s role cannot use this page: it needs the <strong>analyst</strong> role. <a href="/signin">Sign in with another key</a>.</p>
    </>
  );
}
