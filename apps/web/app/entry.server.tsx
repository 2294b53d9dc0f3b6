import { STATUS_CODES } from "node:http";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { isCrawlerRequest } from "./lib/crawler.ts";
import { isReportableError, reportError } from "./lib/error-reporting.ts";

/**
 * The standard React Router streaming entry, plus two rules of the specification (§8):
 * - crawlers do not get the error page: an error status (4xx, 5xx) answers a crawler (lib/crawler.ts)
 *   with a short plain-text body instead of the HTML error screen;
 * - errors go to the error-reporting service, except aborted requests (client gone);
 * - inline scripts carry the nonce of the server's Content-Security-Policy (load context).
 * Crawlers (and SPA mode) wait for all content before the response starts, so they get full HTML.
 */
export const streamTimeout = 5_000;

/** A plain-text answer for a bot that hit an error page: `404 Not Found`. */
export function plainErrorResponse(status: number, headers: Headers): Response {
  const text = `${status} ${STATUS_CODES[status] ?? "Error"}`;
  const plainHeaders = new Headers(headers);
  plainHeaders.set("Content-Type", "text/plain; charset=utf-8");
  plainHeaders.set("X-Robots-Tag", "noindex");
  return new Response(`${text}\n`, { status, headers: plainHeaders });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const crawler = isCrawlerRequest(request);
  if (crawler && responseStatusCode >= 400) return plainErrorResponse(responseStatusCode, responseHeaders);

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const readyOption: keyof RenderToPipeableStreamOptions =
      crawler || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort the rendering stream after `streamTimeout` so it has time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    // The server's per-response script nonce (Content-Security-Policy): React Router's inline scripts
    // and <Scripts>/<ScrollRestoration> take it from ServerRouter, React's own from `nonce`.
    const nonce = loadContext?.contentSecurityPolicy?.nonce;
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell are logged by React Router when the shell fails.
          if (shellRendered) reportServerError(error, loadContext);
        },
      },
    );
  });
}

/** Loader, action and render errors; thrown 4xx answers never reach here (React Router filters them). */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  reportServerError(error, context as Partial<AppLoadContext> | undefined);
};

/** To the server's reporter (Sentry with a DSN) when the load context carries one, else the console. */
function reportServerError(error: unknown, context: Partial<AppLoadContext> | undefined) {
  if (!isReportableError(error)) return;
  if (context?.reportError) context.reportError(error);
  else reportError(error);
}
