import { ERROR_REPORT_DATA_COLLECTION } from "@pressguard/domain";

/**
 * Server errors go to Sentry when SENTRY_DSN is set (spec §7; §8: client errors 300–499 are not
 * reported). The SDK is loaded only then, so a server without a DSN starts no faster or slower than
 * before. What is sent: the error, its stack, the method, the route's pattern and the request id —
 * never headers, cookies, bodies or query strings, which may carry credentials or report text.
 */

interface ErrorReportContext {
  status: number;
  method?: string;
  /** The route's pattern (`/api/reports/:id`), never the URL with its values. */
  route?: string;
  requestId?: string;
}

export interface ErrorReporter {
  /** Sends one 5xx error; anything below 500 is an answer, not a fault, and is ignored. */
  capture(error: unknown, context: ErrorReportContext): void;
  /** Waits up to `timeoutMs` for the reports still being sent (on shutdown). */
  close(timeoutMs?: number): Promise<void>;
}

export interface ErrorReportingOptions {
  dsn?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
}

const NO_REPORTING: ErrorReporter = {
  capture() {},
  async close() {},
};

function isReportedStatus(status: number): boolean {
  return status >= 500;
}

export async function createErrorReporter(options: ErrorReportingOptions): Promise<ErrorReporter> {
  if (!options.dsn) return NO_REPORTING;
  const Sentry = await import("@sentry/node");
  // Without the default integrations: no handler of uncaught exceptions (main.ts decides how the
  // process ends), no console, http or fetch instrumentation, no request data (headers and cookies).
  const client = Sentry.initWithoutDefaultIntegrations({
    dsn: options.dsn,
    release: options.release,
    environment: options.environment ?? "production",
    dataCollection: ERROR_REPORT_DATA_COLLECTION,
    integrations: [
      Sentry.eventFiltersIntegration(),
      Sentry.functionToStringIntegration(),
      Sentry.linkedErrorsIntegration(),
      Sentry.dedupeIntegration(),
      Sentry.nodeContextIntegration(),
      Sentry.contextLinesIntegration(),
    ],
  });
  return {
    capture(error, context) {
      if (!isReportedStatus(context.status)) return;
      Sentry.withScope((scope) => {
        scope.setTag("status", String(context.status));
        if (context.method) scope.setTag("method", context.method);
        if (context.route) scope.setTag("route", context.route);
        if (context.requestId) scope.setTag("request_id", context.requestId);
        Sentry.captureException(error);
      });
    },
    async close(timeoutMs = 2_000) {
      await client?.close(timeoutMs);
    },
  };
}
