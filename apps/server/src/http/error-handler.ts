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
    if (error instanceof AppError) {
      const body: ErrorBody = { status: "error", message: error.message };
      if (error.fieldErrors) body.errors = error.fieldErrors;
      if (error.status >= 500) {
        request.log.error({ err: error }, "application error");
        report(error, request, error.status);
      }
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(body);
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
    if (UNSTORABLE_TEXT_CODES.has((error as { code?: unknown }).code as string)) {
      return reply
        .status(422)
        .send({ status: "error", message: UNSTORABLE_TEXT_MESSAGE } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      // A restart or failover of PostgreSQL: only the requests in flight fail, and may be retried.
      request.log.warn({ err: error }, "database unavailable");
      report(error, request, 503);
      return reply
        .status(503)
        .header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ status: "error", message: defaultMessageFor(503) } satisfies ErrorBody);
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, "unhandled error");
      report(error, request, status);
      // Never leak a 5xx message.
      return reply
        .status(status)
        .send({ status: "error", message: defaultMessageFor(status) } satisfies ErrorBody);
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type) carry safe messages.
    return reply
      .status(status)
      .send({ status: "error", message: error.message || defaultMessageFor(status) });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ status: "error", message: `Route ${request.method} ${request.url.split("?")[0]} not found.` });
  });
}
