import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "../db/connection-errors.ts";
import { AppError, defaultMessageFor } from "../errors.ts";
import type { ErrorReporter } from "./error-reporting.ts";
import { bodyTooLargeMessage, discardBody } from "./request-body.ts";

/** The error body of ARCHITECTURE.md: `{ status: "error", message, errors? }` (OpenAPI: `Error`). */
export const ErrorBody = z
  .object({
    status: z.literal("error"),
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

function fieldErrorsOf(issues: { instancePath: string; message?: string }[], part: string) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || part;
    errors[field] = [...(errors[field] ?? []), issue.message ?? "is invalid"];
  }
  return errors;
}

/**
 * PostgreSQL refuses a NUL character or bytes invalid in UTF-8 in text (22021, 22P05): that is bad
 * input the schemas let through, so it is the caller's 422, never a 500.
 */
const UNSTORABLE_TEXT_CODES = new Set(["22021", "22P05"]);
export const UNSTORABLE_TEXT_MESSAGE = "The request contains characters that cannot be stored (such as NUL).";

/** The answer to an error a handler threw: its status, body and headers, and whether it is logged. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
  /** Logged (and reported) as the server's fault or an outage; a caller's mistake is not. */
  log?: { level: "error" | "warn"; message: string };
}

/**
 * The one mapping of a thrown error to the API's answer: used by the HTTP error handler and by the
 * in-process reads of server-rendered pages (http/page-reads.ts), so both fail alike.
 */
export function errorAnswerOf(error: unknown): ErrorAnswer {
  if (error instanceof AppError) {
    const body: ErrorBody = { status: "error", message: error.message };
    if (error.fieldErrors) body.errors = error.fieldErrors;
    return {
      status: error.status,
      body,
      ...(error.headers && { headers: error.headers }),
      ...(error.status >= 500 && { log: { level: "error", message: "application error" } }),
    };
  }
  if (UNSTORABLE_TEXT_CODES.has((error as { code?: unknown } | null)?.code as string)) {
    return { status: 422, body: { status: "error", message: UNSTORABLE_TEXT_MESSAGE } };
  }
  if (isDatabaseUnavailable(error)) {
    // A restart or failover of PostgreSQL: only the requests in flight fail, and may be retried.
    return {
      status: 503,
      body: { status: "error", message: defaultMessageFor(503) },
      headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
      log: { level: "warn", message: "database unavailable" },
    };
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  const status = typeof statusCode === "number" && statusCode >= 400 ? statusCode : 500;
  if (status >= 500) {
    // Never leak a 5xx message.
    return {
      status,
      body: { status: "error", message: defaultMessageFor(status) },
      log: { level: "error", message: "unhandled error" },
    };
  }
  // Fastify's own 4xx (bad JSON, body too large, unsupported media type) carry safe messages.
  const message = error instanceof Error ? error.message : "";
  return { status, body: { status: "error", message: message || defaultMessageFor(status) } };
}

export function registerErrorHandlers(app: FastifyInstance, reporter?: ErrorReporter) {
  const report = (error: unknown, request: FastifyRequest, status: number) =>
    reporter?.capture(error, {
      status,
      method: request.method,
      ...(request.routeOptions.url && { route: request.routeOptions.url }),
      requestId: request.id,
    });
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      // Fastify answers before reading the body and closes the connection: a client still sending
      // got a reset instead of this answer. Read the rest first, then keep the connection.
      if (await discardBody(request.raw)) reply.removeHeader("connection");
      const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1_048_576;
      return reply
        .status(413)
        .send({ status: "error", message: bodyTooLargeMessage(limit) } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrorsOf(error.validation, error.validationContext ?? "request");
      return reply
        .status(422)
        .send({ status: "error", message: defaultMessageFor(422), errors } satisfies ErrorBody);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, url: request.url }, "response does not match its schema");
      report(error, request, 500);
      return reply.status(500).send({ status: "error", message: defaultMessageFor(500) } satisfies ErrorBody);
    }
    const answer = errorAnswerOf(error);
    if (answer.log) request.log[answer.log.level]({ err: error }, answer.log.message);
    if (answer.log) report(error, request, answer.status);
    if (answer.headers) reply.headers(answer.headers);
    return reply.status(answer.status).send(answer.body);
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ status: "error", message: `Route ${request.method} ${request.url.split("?")[0]} not found.` });
  });
}
