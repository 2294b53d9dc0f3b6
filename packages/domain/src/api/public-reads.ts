import type {
  Contributors,
  DatabaseCounts,
  FooterMetrics,
  Leaderboard,
  ProgramDirectory,
  PublicProduct,
  PublicResearcherProfile,
  Statistics,
  VulnerabilityDetail,
  VulnerabilityPage,
  VulnerabilitySearchPage,
} from "./public-database.ts";

/**
 * The public reads a server-rendered page gets in-process (issue 36, decision 038): each is an API
 * route of the public database, named by its route pattern under `/api`, answered by the same
 * definition (schemas, handler) as the HTTP route without a request to the server's own port.
 */
export interface PublicReadAnswers {
  "/v1/vulnerabilities": VulnerabilitySearchPage;
  "/v1/vulnerabilities/:id": VulnerabilityDetail;
  "/v1/products/:platform/:kind/:slug": PublicProduct;
  "/products/:id/vulnerabilities": VulnerabilityPage;
  "/products/:id/contributors": Contributors;
  "/v1/researchers/:uuid": PublicResearcherProfile;
  "/v1/researchers/:uuid/vulnerabilities": VulnerabilityPage;
  "/v1/statistics/counts": DatabaseCounts;
  "/v1/statistics/:platform/:timeframe": Statistics;
  "/v1/leaderboard/:type": Leaderboard;
  "/v1/programs": ProgramDirectory;
  "/public/footer/metrics": FooterMetrics;
}

export type PublicReadRoute = keyof PublicReadAnswers;

/** The query of a read as a page's loader builds it: absent values are left out. */
export type PublicReadQuery = Readonly<Record<string, string | number | undefined>>;

/** Reads one public route in-process: what `GET /api<route>` would answer, parsed. */
export type PublicReader = <R extends PublicReadRoute>(
  route: R,
  params?: Readonly<Record<string, string>>,
  query?: PublicReadQuery,
) => Promise<PublicReadAnswers[R]>;

/** What an in-process read throws instead of an answer: the status and body the API would send. */
export interface PublicReadFailure {
  readonly kind: "public-read-failure";
  readonly status: number;
  readonly message: string;
  readonly errors?: Record<string, string[]>;
}

export function isPublicReadFailure(error: unknown): error is PublicReadFailure {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { kind?: unknown }).kind === "public-read-failure" &&
    typeof (error as { status?: unknown }).status === "number"
  );
}

/** `/v1/vulnerabilities/:id` with `{ id: "a b" }` → `/v1/vulnerabilities/a%20b`; a missing param throws. */
export function publicReadPath(
  route: PublicReadRoute,
  params: Readonly<Record<string, string>> = {},
): string {
  return route.replace(/:([a-z]+)/gi, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** The query string a read is asked with, in the order given, absent values left out ("" when none). */
export function publicReadSearch(query: PublicReadQuery = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) search.append(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
