import {
  isPageReadFailure,
  type PageReadAnswers,
  type PageReader,
  type PageReadQuery,
  type PageReadRoute,
  pageReadPath,
  pageReadSearch,
} from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { ApiError, isApiError, REQUEST_ABORTED_MESSAGE } from "../../lib/api/api-error.ts";
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
 * One public read during SSR. The API's 404 is the page's 404; any other failure shows the
 * specification's store failure message (with the API's 4xx or 5xx: `apiFailureOf`).
 */
function publicGet<R extends PageReadRoute>(
  input: LoaderInput,
  route: R,
  params: Record<string, string>,
  failure: string,
  query?: PageReadQuery,
): Promise<PageReadAnswers[R]> {
  // The loaders of one page share its request: a layout and its page asking for the same product ask
  // the API once.
  const asked = askedBy.get(input.request) ?? new Map<string, Promise<unknown>>();
  askedBy.set(input.request, asked);
  const key = `${pageReadPath(route, params)}${pageReadSearch(query)}`;
  const answer = asked.get(key) ?? readPublic(input, route, params, failure, query);
  asked.set(key, answer);
  return answer as Promise<PageReadAnswers[R]>;
}

const askedBy = new WeakMap<Request, Map<string, Promise<unknown>>>();

async function readPublic<R extends PageReadRoute>(
  { request, context }: LoaderInput,
  route: R,
  params: Record<string, string>,
  failure: string,
  query?: PageReadQuery,
): Promise<PageReadAnswers[R]> {
  try {
    // In the server that renders the page, in-process (decision 038); over HTTP where there is none.
    if (context?.pageRead) return await readInProcess(context.pageRead, route, params, query);
    const client = createServerApiClient(request, context, { forwardCookies: false, ...SSR_OPTIONS });
    return await client.request<PageReadAnswers[R]>(pageReadPath(route, params), { query });
  } catch (error) {
    if (isApiError(error) && error.status === 404) throwNotFound();
    throw apiFailureOf(error, failure);
  }
}

/** The in-process read, failing as the HTTP call fails: an `ApiError`, 408 after the SSR timeout. */
async function readInProcess<R extends PageReadRoute>(
  read: PageReader,
  route: R,
  params: Record<string, string>,
  query: PageReadQuery | undefined,
): Promise<PageReadAnswers[R]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError(408, REQUEST_ABORTED_MESSAGE)), SSR_OPTIONS.timeout);
  });
  try {
    return await Promise.race([read(route, params, query), timeout]);
  } catch (error) {
    if (isPageReadFailure(error)) throw new ApiError(error.status, error.message, { errors: error.errors });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export const databaseApi = {
  searchVulnerabilities: (input: LoaderInput, params: SearchParams, perPage = 20) =>
    publicGet(input, "/v1/vulnerabilities", {}, FETCH_FAILURES.vulnerabilities, {
      ...params,
      patched: params.patched === undefined ? undefined : String(params.patched),
      known_exploited: params.known_exploited ? "true" : undefined,
      per_page: perPage,
    }),
  getCounts: (input: LoaderInput) =>
    publicGet(input, "/v1/statistics/counts", {}, FETCH_FAILURES.vulnerabilities),
  getVulnerability: (input: LoaderInput, slug: string) =>
    publicGet(input, "/v1/vulnerabilities/:id", { id: slug }, FETCH_FAILURES.vulnerabilities),
  getProduct: (input: LoaderInput, platform: string, kind: string, slug: string) =>
    publicGet(input, "/v1/products/:platform/:kind/:slug", { platform, kind, slug }, FETCH_FAILURES.product),
  getProductVulnerabilities: (
    input: LoaderInput,
    productId: number,
    tab: "present" | "fixed",
    page: number,
  ) =>
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
  getProductContributors: (input: LoaderInput, productId: number) =>
    publicGet(input, "/products/:id/contributors", { id: String(productId) }, FETCH_FAILURES.contributors),
  getResearcher: (input: LoaderInput, uuid: string) =>
    publicGet(input, "/v1/researchers/:uuid", { uuid }, FETCH_FAILURES.contributors),
  getResearcherVulnerabilities: (input: LoaderInput, uuid: string, page: number) =>
    publicGet(input, "/v1/researchers/:uuid/vulnerabilities", { uuid }, FETCH_FAILURES.vulnerabilities, {
      page,
    }),
  getLeaderboard: (input: LoaderInput, type: string) =>
    publicGet(input, "/v1/leaderboard/:type", { type }, FETCH_FAILURES.leaderboard),
  getStatistics: (input: LoaderInput, platform: string, timeframe: string) =>
    publicGet(
      input,
      "/v1/statistics/:platform/:timeframe",
      { platform, timeframe },
      FETCH_FAILURES.statistics,
    ),
  findActivePrograms: (input: LoaderInput, q: string | undefined, page: number) =>
    publicGet(input, "/v1/programs", {}, FETCH_FAILURES.products, { q, page, per_page: 50 }),
};
