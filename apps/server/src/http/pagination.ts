import type { Pagination } from "@pressguard/domain";
import type { FastifyRequest } from "fastify";

/** `{ current_page, next_page_url, … }`; page URLs keep the caller's query string (ARCHITECTURE.md). */
export function paginationOf(
  path: string,
  query: URLSearchParams,
  page: number,
  perPage: number,
  total: number,
  /** The list stops at `total` although more matched (the public search's limit, decision 015). */
  capped = false,
) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const urlFor = (target: number) => {
    const next = new URLSearchParams(query);
    next.set("page", String(target));
    return `${path}?${next.toString()}`;
  };
  return {
    current_page: page,
    per_page: perPage,
    total,
    last_page: lastPage,
    next_page_url: page < lastPage ? urlFor(page + 1) : null,
    prev_page_url: page > 1 ? urlFor(Math.min(page - 1, lastPage)) : null,
    ...(capped && { total_capped: true }),
  } satisfies Pagination;
}

export interface PageRequest {
  /** The API path that answers this list, for the pagination links. */
  path: string;
  query: URLSearchParams;
  page: number;
  perPage: number;
}

/** The page of a list route: its own path and query string give the pagination links. */
export function pageRequest(
  request: Pick<FastifyRequest, "url">,
  page: number,
  perPage: number,
): PageRequest {
  const [path = "", search = ""] = request.url.split("?");
  return { path, query: new URLSearchParams(search), page, perPage };
}
