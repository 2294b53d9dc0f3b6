import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { defaultMessageFor } from "../errors.ts";
import type { ErrorBody } from "./error-handler.ts";

/**
 * A path with a malformed percent-encoding (`/database/wordpress/plugin/%ff/vulnerabilities/vdp`),
 * read the way browsers show it: each `%` of a segment that does not decode stands for itself. The
 * query string is kept as sent.
 */
export function repairedUrl(url: string): string {
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? "" : url.slice(queryStart);
  const segments = path.split("/").map((segment) => {
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      return segment.replaceAll("%", "%25");
    }
  });
  return `${segments.join("/")}${query}`;
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals, answered like every other request instead
 * of Fastify's raw JSON. A malformed path is routed again once repaired, so a page answers with the
 * web application's page (its 404 for a product that does not exist) and the API with its JSON.
 */
/** Hands a request to the router again (`app.routing`). */
export type RouteAgain = (request: IncomingMessage, response: ServerResponse) => void;

export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  routeAgain: RouteAgain,
) {
  const url = request.raw.url ?? "/";
  if (error.code === "FST_ERR_BAD_URL" && repairedUrl(url) !== url) {
    request.raw.url = repairedUrl(url);
    return routeAgain(request.raw, reply.raw);
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  const message = status >= 500 ? defaultMessageFor(status) : defaultMessageFor(400);
  return reply.code(status).send({ status: "error", message } satisfies ErrorBody);
}
