import {
  isPageReadFailure,
  type PageReadAnswers,
  type PageReader,
  type PageReadQuery,
  type PageReadRoute,
  pageReadPath,
  pageReadSearch,
  type VisitorCredentials,
} from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { ApiError, REQUEST_ABORTED_MESSAGE } from "./api-error.ts";
import { createServerApiClient } from "./client.server.ts";
import { serverSideTokenOf } from "./visitor-token.server.ts";

/** What a loader has of its request. */
export interface PageInput {
  request: Request;
  context: Partial<AppLoadContext> | undefined;
}

export interface PageReadOptions {
  /**
   * `visitor`: read with the page request's credentials (session cookie, token, link grant, PIN
   * preview cookie); `anonymous` (default): as nobody, a public read.
   */
  as?: "visitor" | "anonymous";
  /** SSR must not hang on a slow API: after this many ms the read fails with 408. Default 5000. */
  timeout?: number;
  /** Over HTTP (no in-process reader): tries after a failed one. Default 0. */
  retry?: number;
  /** Over HTTP: the path when the API's configuration names another (the user endpoint). */
  httpPath?: string;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * What stands for one page view, for what its loaders share: the server makes one load context per
 * page request and gives it to all the request's loaders, which get a Request each (a layout and its
 * page); a bare context (a test) may be shared by many requests, so there it is the Request.
 */
export function pageViewOf({ request, context }: PageInput): object {
  return context?.pageRead ? context : request;
}

/**
 * One API read of a page's loader, failing as the HTTP call fails (an `ApiError`; 408 after the
 * timeout). In the server that renders the page it is answered in-process, by the same route
 * definition as `GET /api/…` (decision 038); with a bare load context (a test rendering the app
 * alone, `react-router dev`) it is asked over HTTP. The loaders of one page view share the answers:
 * a layout and its page asking for the same record ask once.
 */
export function readForPage<R extends PageReadRoute>(
  input: PageInput,
  route: R,
  params: Readonly<Record<string, string>> = {},
  query?: PageReadQuery,
  options: PageReadOptions = {},
): Promise<PageReadAnswers[R]> {
  const owner = pageViewOf(input);
  const asked = askedBy.get(owner) ?? new Map<string, Promise<unknown>>();
  askedBy.set(owner, asked);
  const key = `${options.as ?? "anonymous"} ${pageReadPath(route, params)}${pageReadSearch(query)}`;
  const answer = asked.get(key) ?? read(input, route, params, query, options);
  asked.set(key, answer);
  return answer as Promise<PageReadAnswers[R]>;
}

const askedBy = new WeakMap<object, Map<string, Promise<unknown>>>();

function read<R extends PageReadRoute>(
  { request, context }: PageInput,
  route: R,
  params: Readonly<Record<string, string>>,
  query: PageReadQuery | undefined,
  options: PageReadOptions,
): Promise<PageReadAnswers[R]> {
  const asVisitor = options.as === "visitor";
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  if (context?.pageRead) {
    const visitor = asVisitor
      ? { cookie: request.headers.get("cookie"), bearer: serverSideTokenOf(request, context) }
      : undefined;
    return readInProcess(context.pageRead, timeout, route, params, query, visitor);
  }
  const client = createServerApiClient(request, context, {
    forwardCookies: asVisitor,
    retry: options.retry ?? 0,
    timeout,
  });
  return client.request<PageReadAnswers[R]>(options.httpPath ?? pageReadPath(route, params), { query });
}

async function readInProcess<R extends PageReadRoute>(
  pageRead: PageReader,
  timeoutMs: number,
  route: R,
  params: Readonly<Record<string, string>>,
  query: PageReadQuery | undefined,
  visitor: VisitorCredentials | undefined,
): Promise<PageReadAnswers[R]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError(408, REQUEST_ABORTED_MESSAGE)), timeoutMs);
  });
  try {
    return await Promise.race([pageRead(route, params, query, visitor), timeout]);
  } catch (error) {
    if (isPageReadFailure(error)) throw new ApiError(error.status, error.message, { errors: error.errors });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
