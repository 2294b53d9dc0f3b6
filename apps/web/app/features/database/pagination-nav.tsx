import type { Pagination } from "@pressguard/domain";
import { formatCount } from "../../lib/numbers.ts";
import { Link } from "../../ui/link.tsx";

/** Previous / next links of a server-paginated list; plain links, so crawlers follow them. */
export function PaginationNav({
  pagination,
  hrefFor,
}: {
  pagination: Pagination;
  hrefFor: (page: number) => string;
}) {
  const { current_page: page, last_page: lastPage, total } = pagination;
  if (total === 0) return null;
  const count = `${pagination.total_capped ? "more than " : ""}${formatCount(total)}`;
  return (
    <nav aria-label="Pagination" className="mt-6 flex items-center justify-between gap-4 text-sm">
      <span className="text-slate-600">
        Page {formatCount(page)} of {formatCount(lastPage)} · {count} {total === 1 ? "result" : "results"}
      </span>
      <span className="flex gap-3">
        {pagination.prev_page_url && (
          <Link to={hrefFor(Math.min(page - 1, lastPage))} rel="prev" className="btn-secondary">
            Previous page
          </Link>
        )}
        {pagination.next_page_url && (
          <Link to={hrefFor(page + 1)} rel="next" className="btn-secondary">
            Next page
          </Link>
        )}
      </span>
    </nav>
  );
}
