/** The pagination every list of the API answers with (ARCHITECTURE.md "API conventions"). */
export interface Pagination {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
  next_page_url: string | null;
  prev_page_url: string | null;
  /** More matched than a search counts: `total` is its limit and the list stops there. */
  total_capped?: true;
}

/** One page of a list: `{ data, pagination }`. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/**
 * The page number a `next_page_url` asks for. The API writes it relative to its own origin
 * (`/api/products?filter=…&page=2`); reading only `page` keeps the call on the client's API base.
 */
export function pageFromUrl(url: string | null | undefined): number | null {
  if (!url) return null;
  try {
    const page = Number(new URL(url, "http://localhost").searchParams.get("page"));
    return Number.isInteger(page) && page >= 1 ? page : null;
  } catch {
    return null;
  }
}
