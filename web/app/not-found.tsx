export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no such page or company. <a href="/companies">Back to the companies</a>
      </p>
    </>
  );
}
