import { ERROR_REPORT_DATA_COLLECTION } from "@pressguard/domain";
import { isRouteErrorResponse } from "react-router";

/**
 * Error reporting in the browser (spec §7 "Errors go to an error-reporting service", §8 "Client
 * errors 300-499 are not reported"). Without a DSN an error is written to the console. With a Sentry
 * DSN the Sentry browser SDK reports it; the SDK is fetched at the first error (a chunk of its own),
 * so pages carry no SDK weight until something fails (decision 019's budget). Until then, uncaught
 * errors and unhandled rejections are caught by two listeners installed here. On the server, render
 * and loader errors go to the server's reporter through the load context (entry.server.tsx).
 */

export interface ErrorReportingOptions {
  dsn?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
}

let defaults: ErrorReportingOptions = {};
type BrowserSdk = typeof import("./sentry-browser.ts");
let sdk: Promise<BrowserSdk> | null = null;
let listening = false;

/** Called once by the root of the app with the public config (DSN, build id). */
export function configureErrorReporting(options: ErrorReportingOptions): void {
  defaults = { ...options };
  if (options.dsn && typeof window !== "undefined" && !listening) {
    listening = true;
    window.addEventListener("error", (event) => void reportError(event.error ?? event.message));
    window.addEventListener("unhandledrejection", (event) => void reportError(event.reason));
  }
}

function loadSdk(options: ErrorReportingOptions & { dsn: string }): Promise<BrowserSdk> {
  sdk ??= import("./sentry-browser.ts").then((Sentry) => {
    Sentry.init({
      dsn: options.dsn,
      release: options.release,
      environment: options.environment ?? "production",
      dataCollection: ERROR_REPORT_DATA_COLLECTION,
      // The listeners above report uncaught errors; no session pings on every page view.
      integrations: (integrations) =>
        integrations.filter(({ name }) => name !== "BrowserSession" && name !== "GlobalHandlers"),
      beforeSend: (event, hint) => (isReportableError(hint.originalException) ? event : null),
    });
    return Sentry;
  });
  return sdk;
}

/** The HTTP status an error stands for, when it carries one. */
function statusOfError(error: unknown): number | undefined {
  if (isRouteErrorResponse(error)) return error.status;
  if (error && typeof error === "object" && "status" in error && typeof error.status === "number") {
    return error.status;
  }
  return undefined;
}

/** Redirects and client errors (300–499) are expected answers, not faults (spec §8). */
export function isReportableError(error: unknown): boolean {
  const status = statusOfError(error);
  return status === undefined || status < 300 || status > 499;
}

/**
 * Reports one error unless it is a 300–499 answer. Returns whether it was reported.
 * Never throws: a failing report is written to the console and forgotten.
 */
export function reportError(error: unknown, options: ErrorReportingOptions = defaults): boolean {
  if (!isReportableError(error)) return false;
  const { dsn } = options;
  if (!dsn || typeof window === "undefined") {
    console.error(error);
    return true;
  }
  loadSdk({ ...options, dsn }).then(
    (Sentry) => Sentry.captureException(error),
    (loadError: unknown) => console.error("Error report could not be sent", loadError, error),
  );
  return true;
}
