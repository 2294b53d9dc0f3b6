import type { AppLoadContext } from "react-router";
import { absoluteApiBase, getRequestContext } from "../request-context.server.ts";
import { type ApiClient, type ApiClientOptions, createApiClient } from "./request.ts";
import { serverSideTokenOf } from "./visitor-token.server.ts";

export interface ServerApiClientOptions extends Partial<Pick<ApiClientOptions, "retry" | "timeout">> {
  /** Forward the visitor's cookies (their session). Off for public, cacheable calls. */
  forwardCookies?: boolean;
  /**
   * A call made for the visitor (not a reading page's own): counted on the visitor's rate-limit
   * budget through the load context's `visitorApiHeaders`.
   */
  countedOnVisitor?: boolean;
}

/** The in-process API's base: only its path matters (`/api`, where the server mounts the API). */
const IN_PROCESS_API_BASE = "http://pressguard.internal/api";

/**
 * The request wrapper during SSR: absolute API base on the server's own origin, and the
 * visitor's `Cookie` header (or, in token mode, their token) forwarded so that the API sees the
 * same session as the browser.
 */
export function createServerApiClient(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
  options: ServerApiClientOptions = {},
): ApiClient {
  const { publicConfig } = getRequestContext(context, request);
  return createApiClient({
    // In the server that renders the page, the call is handed to its API (mounted at /api) in-process,
    // without a socket (load-context.ts); elsewhere it goes over HTTP.
    ...(context?.apiFetch
      ? { baseUrl: IN_PROCESS_API_BASE, fetch: context.apiFetch }
      : {
          baseUrl: absoluteApiBase(context?.apiOrigin ?? new URL(request.url).origin, publicConfig.apiBase),
        }),
    auth: publicConfig.auth,
    cookieHeader: options.forwardCookies === false ? null : request.headers.get("cookie"),
    ...(context?.apiHeaders && {
      headers: (options.countedOnVisitor && context.visitorApiHeaders) || context.apiHeaders,
    }),
    // Token mode: the visitor's token, from their Bearer header or token cookie (decision 021).
    ...(options.forwardCookies !== false && { getToken: () => serverSideTokenOf(request, context) }),
    retry: options.retry,
    timeout: options.timeout,
  });
}
