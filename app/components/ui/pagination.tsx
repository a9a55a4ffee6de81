import { Link } from "react-router";

/** Previous and Next links for a list of more than one page, keeping the page's other query values. */
export function Pagination({
  page,
  pages,
  total,
  search,
  label,
  param = "page",
}: {
  page: number;
  pages: number;
  total: number;
  /** The current query string's other values (e.g. the search), kept on each link. */
  search: URLSearchParams;
  label: string;
  /** The query parameter that holds the page number, where a page has more than one list. */
  param?: string;
}) {
  if (pages <= 1) return null;
  const to = (target: number) => {
    const params = new URLSearchParams(search);
    if (target === 1) params.delete(param);
    else params.set(param, String(target));
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? (
        <Link to={to(page - 1)} rel="prev" preventScrollReset>
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {pages} ({total} in all)
      </span>
      {page < pages ? (
        <Link to={to(page + 1)} rel="next" preventScrollReset>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
