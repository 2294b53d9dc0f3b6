import type {
  Contributor,
  DatabaseCounts,
  Leaderboard,
  ProgramDirectory,
  PublicProduct,
  PublicResearcherProfile as ResearcherProfile,
  Statistics,
  VulnerabilityDetail as Vulnerability,
  VulnerabilityPage,
  VulnerabilitySearchPage,
} from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { isApiError } from "../../lib/api/api-error.ts";
import { createServerApiClient } from "../../lib/api/client.server.ts";
import { apiFailureOf, throwNotFound } from "../../lib/errors.ts";
import type { SearchParams } from "./search-params.ts";

/** Spec §8 store failures: the message a page shows when its API call fails. */
export const FETCH_FAILURES = {
  products: "Error fetching products",
  product: "Error fetching product",
  vulnerabilities: "Error fetching vulnerabilities",
  contributors: "Error fetching contributors",
  leaderboard: "Error fetching leaderboard",
  statistics: "Error fetching statistics",
} as const;

/** SSR must not hang on a slow API: one try, a short timeout, then the error page. */
const SSR_OPTIONS = { retry: 1, timeout: 5_000 } as const;

interface LoaderInput {
  request: Request;
  context: Partial<AppLoadContext> | undefined;
}

/**
 * One public GET during SSR. The API's 404 is the page's 404; any other failure shows the
 * specification's store failure message (with the API's 4xx or 5xx: `apiFailureOf`).
 */
function publicGet<T>(
  input: LoaderInput,
  path: string,
  failure: string,
  query?: Record<string, string | number | undefined>,
): Promise<T> {
  // The loaders of one page share its request: a layout and its page asking for the same product ask
  // the API once.
  const asked = askedBy.get(input.request) ?? new Map<string, Promise<unknown>>();
  askedBy.set(input.request, asked);
  const key = `${path}?${JSON.stringify(query ?? {})}`;
  const answer = asked.get(key) ?? fetchPublic<T>(input, path, failure, query);
  asked.set(key, answer);
  return answer as Promise<T>;
}

const askedBy = new WeakMap<Request, Map<string, Promise<unknown>>>();

async function fetchPublic<T>(
  { request, context }: LoaderInput,
  path: string,
  failure: string,
  query?: Record<string, string | number | undefined>,
): Promise<T> {
  const client = createServerApiClient(request, context, { forwardCookies: false, ...SSR_OPTIONS });
  try {
    return await client.request<T>(path, { query });
  } catch (error) {
    if (isApiError(error) && error.status === 404) throwNotFound();
    throw apiFailureOf(error, failure);
  }
}

const segment = encodeURIComponent;

export const databaseApi = {
  searchVulnerabilities: (input: LoaderInput, params: SearchParams, perPage = 20) =>
    publicGet<VulnerabilitySearchPage>(input, "/v1/vulnerabilities", FETCH_FAILURES.vulnerabilities, {
      ...params,
      patched: params.patched === undefined ? undefined : String(params.patched),
      known_exploited: params.known_exploited ? "true" : undefined,
      per_page: perPage,
    }),
  getCounts: (input: LoaderInput) =>
    publicGet<DatabaseCounts>(input, "/v1/statistics/counts", FETCH_FAILURES.vulnerabilities),
  getVulnerability: (input: LoaderInput, slug: string) =>
    publicGet<Vulnerability>(input, `/v1/vulnerabilities/${segment(slug)}`, FETCH_FAILURES.vulnerabilities),
  getProduct: (input: LoaderInput, platform: string, kind: string, slug: string) =>
    publicGet<PublicProduct>(
      input,
      `/v1/products/${segment(platform)}/${segment(kind)}/${segment(slug)}`,
      FETCH_FAILURES.product,
    ),
  getProductVulnerabilities: (
    input: LoaderInput,
    productId: number,
    tab: "present" | "fixed",
    page: number,
  ) =>
    publicGet<VulnerabilityPage>(
      input,
      `/products/${productId}/vulnerabilities`,
      FETCH_FAILURES.vulnerabilities,
      {
        "filter[tab]": tab,
        page,
      },
    ),
  getProductContributors: (input: LoaderInput, productId: number) =>
    publicGet<{ data: Contributor[] }>(
      input,
      `/products/${productId}/contributors`,
      FETCH_FAILURES.contributors,
    ),
  getResearcher: (input: LoaderInput, uuid: string) =>
    publicGet<ResearcherProfile>(input, `/v1/researchers/${segment(uuid)}`, FETCH_FAILURES.contributors),
  getResearcherVulnerabilities: (input: LoaderInput, uuid: string, page: number) =>
    publicGet<VulnerabilityPage>(
      input,
      `/v1/researchers/${segment(uuid)}/vulnerabilities`,
      FETCH_FAILURES.vulnerabilities,
      { page },
    ),
  getLeaderboard: (input: LoaderInput, type: string) =>
    publicGet<Leaderboard>(input, `/v1/leaderboard/${segment(type)}`, FETCH_FAILURES.leaderboard),
  getStatistics: (input: LoaderInput, platform: string, timeframe: string) =>
    publicGet<Statistics>(
      input,
      `/v1/statistics/${segment(platform)}/${segment(timeframe)}`,
      FETCH_FAILURES.statistics,
    ),
  findActivePrograms: (input: LoaderInput, q: string | undefined, page: number) =>
    publicGet<ProgramDirectory>(input, "/v1/programs", FETCH_FAILURES.products, { q, page, per_page: 50 }),
};
