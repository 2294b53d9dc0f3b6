/** The pagination every list of the API answers with (ARCHITECTURE.md "API conventions"). */
export interface Pagination {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
  next_page_url: string | null;
  prev_page_url: string | null;
}

/** One page of a list: `{ data, pagination }`. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}
