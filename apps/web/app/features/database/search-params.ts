import { ComponentKind, VULNERABILITY_TYPES } from "@pressguard/domain";

/**
 * The search of /database and /database/existing, read leniently from the page URL (STYLE.md): a
 * value the API would refuse is dropped, so a hand-edited URL never breaks the page.
 */
export interface SearchParams {
  q?: string;
  kind?: string;
  type?: number;
  severity?: string;
  patched?: boolean;
  year?: number;
  /** Only the records in CISA's Known Exploited Vulnerabilities catalog (`known_exploited=true`). */
  known_exploited?: true;
  sort?: "date" | "relevance" | "epss";
  page: number;
}

const SEVERITY_VALUES = ["critical", "high", "medium", "low", "none"] as const;
const TYPE_CODES = new Set<number>(VULNERABILITY_TYPES.map((type) => type.code));
const MAX_PAGE = 100_000;

function wholeNumber(value: string | null): number | undefined {
  return value && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
}

export function parseSearchParams(search: URLSearchParams): SearchParams {
  const params: SearchParams = { page: 1 };
  const q = search.get("q")?.trim().slice(0, 200);
  if (q) params.q = q;
  const kind = search.get("kind");
  if (kind && (ComponentKind.options as readonly string[]).includes(kind)) params.kind = kind;
  const type = wholeNumber(search.get("type"));
  if (type !== undefined && TYPE_CODES.has(type)) params.type = type;
  const severity = search.get("severity");
  if (severity && (SEVERITY_VALUES as readonly string[]).includes(severity)) params.severity = severity;
  const patched = search.get("patched");
  if (patched === "true" || patched === "false") params.patched = patched === "true";
  const year = wholeNumber(search.get("year"));
  if (year !== undefined && year >= 1990 && year <= 2100) params.year = year;
  // A checkbox sends "on" without a value of its own; the API's form is "true".
  const knownExploited = search.get("known_exploited");
  if (knownExploited === "true" || knownExploited === "on") params.known_exploited = true;
  const sort = search.get("sort");
  if (sort === "date" || sort === "relevance" || sort === "epss") params.sort = sort;
  const page = wholeNumber(search.get("page"));
  if (page !== undefined && page >= 1 && page <= MAX_PAGE) params.page = page;
  return params;
}

/** Whether the visitor asked for anything beyond the first page of everything. */
export function hasSearch(params: SearchParams): boolean {
  return Object.entries(params).some(([name, value]) => name !== "page" && value !== undefined);
}

/** The page URL's query for another page of the same search. */
export function searchWithPage(search: URLSearchParams, page: number): string {
  const next = new URLSearchParams(search);
  if (page <= 1) next.delete("page");
  else next.set("page", String(page));
  const query = next.toString();
  return query ? `?${query}` : "";
}
