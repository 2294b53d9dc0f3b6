import type { PageReadAnswers, PageReadQuery, PageReadRoute } from "@pressguard/domain";
import { isApiError } from "../../lib/api/api-error.ts";
import { type PageInput, readForPage } from "../../lib/api/page-read.server.ts";
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

/**
 * One public read during SSR. The API's 404 is the page's 404; any other failure shows the
 * specification's store failure message (with the API's 4xx or 5xx: `apiFailureOf`).
 */
async function publicGet<R extends PageReadRoute>(
  input: PageInput,
  route: R,
  params: Record<string, string>,
  failure: string,
  query?: PageReadQuery,
): Promise<PageReadAnswers[R]> {
  try {
    // One try more over HTTP (a bare load context): SSR must not hang, nor fail on one lost call.
    return await readForPage(input, route, params, query, { retry: 1 });
  } catch (error) {
    if (isApiError(error) && error.status === 404) throwNotFound();
    throw apiFailureOf(error, failure);
  }
}

export const databaseApi = {
  searchVulnerabilities: (input: PageInput, params: SearchParams, perPage = 20) =>
    publicGet(input, "/v1/vulnerabilities", {}, FETCH_FAILURES.vulnerabilities, {
      ...params,
      patched: params.patched === undefined ? undefined : String(params.patched),
      known_exploited: params.known_exploited ? "true" : undefined,
      per_page: perPage,
    }),
  getCounts: (input: PageInput) =>
    publicGet(input, "/v1/statistics/counts", {}, FETCH_FAILURES.vulnerabilities),
  getVulnerability: (input: PageInput, slug: string) =>
    publicGet(input, "/v1/vulnerabilities/:id", { id: slug }, FETCH_FAILURES.vulnerabilities),
  getProduct: (input: PageInput, platform: string, kind: string, slug: string) =>
    publicGet(input, "/v1/products/:platform/:kind/:slug", { platform, kind, slug }, FETCH_FAILURES.product),
  getProductVulnerabilities: (input: PageInput, productId: number, tab: "present" | "fixed", page: number) =>
    publicGet(
      input,
      "/products/:id/vulnerabilities",
      { id: String(productId) },
      FETCH_FAILURES.vulnerabilities,
      {
        "filter[tab]": tab,
        page,
      },
    ),
  getProductContributors: (input: PageInput, productId: number) =>
    publicGet(input, "/products/:id/contributors", { id: String(productId) }, FETCH_FAILURES.contributors),
  getResearcher: (input: PageInput, uuid: string) =>
    publicGet(input, "/v1/researchers/:uuid", { uuid }, FETCH_FAILURES.contributors),
  getResearcherVulnerabilities: (input: PageInput, uuid: string, page: number) =>
    publicGet(input, "/v1/researchers/:uuid/vulnerabilities", { uuid }, FETCH_FAILURES.vulnerabilities, {
      page,
    }),
  getLeaderboard: (input: PageInput, type: string) =>
    publicGet(input, "/v1/leaderboard/:type", { type }, FETCH_FAILURES.leaderboard),
  getStatistics: (input: PageInput, platform: string, timeframe: string) =>
    publicGet(
      input,
      "/v1/statistics/:platform/:timeframe",
      { platform, timeframe },
      FETCH_FAILURES.statistics,
    ),
  findActivePrograms: (input: PageInput, q: string | undefined, page: number) =>
    publicGet(input, "/v1/programs", {}, FETCH_FAILURES.products, { q, page, per_page: 50 }),
};
