/** The previous and next links of a paged list, each only where that page exists. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 && (
        <a href={href(page - 1)} rel="prev">
          ← Previous
        </a>
      )}
      {page < pages && (
        <a href={href(page + 1)} rel="next">
          Next →
        </a>
      )}
    </nav>
  );
}
