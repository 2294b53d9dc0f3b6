import { isRouteErrorResponse } from "react-router";

/**
 * Error reporting (spec §7 "Errors go to an error-reporting service", §8 "Client errors 300-499 are
 * not reported"). Without a DSN an error is written to the console; with a Sentry DSN it is sent
 * as one Sentry envelope over plain fetch, so no SDK is loaded in the browser.
 */

export interface ErrorReportingOptions {
  dsn?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
  fetch?: typeof fetch | undefined;
}

let defaults: ErrorReportingOptions = {};

/** Called once by the root of the app with the public config (DSN, build id). */
export function configureErrorReporting(options: ErrorReportingOptions): void {
  defaults = { ...options };
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

export interface SentryDsn {
  dsn: string;
  publicKey: string;
  projectId: string;
  envelopeUrl: string;
}

/** `https://<key>@<host>[/<path>]/<project>` → the envelope endpoint of that project. */
export function parseSentryDsn(dsn: string | undefined): SentryDsn | null {
  if (!dsn) return null;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const segments = url.pathname.split("/").filter(Boolean);
  const projectId = segments.pop();
  if (!url.username || !projectId) return null;
  const pathPrefix = segments.length > 0 ? `/${segments.join("/")}` : "";
  const query = new URLSearchParams({ sentry_key: url.username, sentry_version: "7" });
  return {
    dsn,
    publicKey: url.username,
    projectId,
    envelopeUrl: `${url.protocol}//${url.host}${pathPrefix}/api/${projectId}/envelope/?${query}`,
  };
}

export interface EnvelopeMeta {
  dsn: string;
  eventId: string;
  timestamp: Date;
  release?: string | undefined;
  environment?: string | undefined;
}

/** One Sentry envelope (header line, item header line, event line) for one error. */
export function buildSentryEnvelope(error: unknown, meta: EnvelopeMeta): string {
  const type = error instanceof Error ? error.name : "Error";
  const value = error instanceof Error ? error.message : String(error);
  const status = statusOfError(error);
  const event = {
    event_id: meta.eventId,
    timestamp: meta.timestamp.getTime() / 1000,
    platform: "javascript",
    level: "error",
    release: meta.release,
    environment: meta.environment,
    exception: { values: [{ type, value }] },
    tags: status === undefined ? undefined : { status: String(status) },
    extra: error instanceof Error && error.stack ? { stack: error.stack } : undefined,
  };
  const header = { event_id: meta.eventId, sent_at: meta.timestamp.toISOString(), dsn: meta.dsn };
  return `${JSON.stringify(header)}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
}

/**
 * Reports one error unless it is a 300–499 answer. Returns whether it was reported.
 * Never throws: a failing report is written to the console and forgotten.
 */
export function reportError(error: unknown, options: ErrorReportingOptions = defaults): boolean {
  if (!isReportableError(error)) return false;
  const target = parseSentryDsn(options.dsn);
  if (!target) {
    console.error(error);
    return true;
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const envelope = buildSentryEnvelope(error, {
    dsn: target.dsn,
    eventId: crypto.randomUUID().replaceAll("-", ""),
    timestamp: new Date(),
    release: options.release,
    environment: options.environment,
  });
  fetchImpl(target.envelopeUrl, {
    method: "POST",
    body: envelope,
    headers: { "Content-Type": "application/x-sentry-envelope" },
    keepalive: true,
  }).catch((sendError: unknown) => {
    console.error("Error report could not be sent", sendError, error);
  });
  return true;
}
