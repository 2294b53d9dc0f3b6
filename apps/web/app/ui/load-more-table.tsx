import type { ReactNode } from "react";

/** What a "Load more" button reads of a paged list (an `useInfiniteQuery` result). */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The next page of a list, while there is one (spec §4: lists page on with "Load more"). */
export function LoadMoreButton({
  list,
  className = "btn-secondary mt-4",
}: {
  list: PagedList;
  className?: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <button
      type="button"
      className={className}
      disabled={list.isFetchingNextPage}
      onClick={() => void list.fetchNextPage()}
    >
      {list.isFetchingNextPage ? "Loading…" : "Load more"}
    </button>
  );
}

export interface TableColumn {
  label: string;
  /** The header stays on one line (a date). */
  nowrap?: boolean;
}

/** A paged list as a table: its column headers, its rows (`<tr>`s) and "Load more" under it. */
export function LoadMoreTable({
  columns,
  list,
  children,
}: {
  columns: readonly TableColumn[];
  list: PagedList;
  children: ReactNode;
}) {
  return (
    <>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              {columns.map((column) => (
                <th
                  key={column.label}
                  scope="col"
                  className={column.nowrap ? "px-4 py-3 whitespace-nowrap" : "px-4 py-3"}
                >
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">{children}</tbody>
        </table>
      </div>
      <LoadMoreButton list={list} />
    </>
  );
}
