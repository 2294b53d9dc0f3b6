import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { ClientInfo } from "./access.ts";
import { INTERNAL_CALL_HEADER, VISITOR_ADDRESS_HEADER } from "./api-rate-limit.ts";

/**
 * The client a call acts for, where a page's form reaches the API from the server (the PIN page's
 * action, issue 38): the renderer calls from 127.0.0.1, so a per-address limit would count every
 * visitor on one budget. Such a call carries the renderer's per-process secret and the visitor's
 * address (the load context's `visitorApiHeaders`, decision 028); the address is believed only beside
 * the right secret. Any other call is its own client, as `clientInfoOf` says.
 */
export function createVisitorClientInfo(
  internalSecret: string | undefined,
): (request: FastifyRequest, client: ClientInfo) => ClientInfo {
  const expected = internalSecret ? Buffer.from(internalSecret) : null;
  return (request, client) => {
    if (!expected) return client;
    const internal = request.headers[INTERNAL_CALL_HEADER];
    const visitor = request.headers[VISITOR_ADDRESS_HEADER];
    if (typeof internal !== "string" || typeof visitor !== "string" || visitor === "") return client;
    const given = Buffer.from(internal);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return client;
    return { ip: visitor, userAgent: client.userAgent };
  };
}
