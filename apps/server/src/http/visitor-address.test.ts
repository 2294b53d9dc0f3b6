import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { INTERNAL_CALL_HEADER, VISITOR_ADDRESS_HEADER } from "./api-rate-limit.ts";
import { createVisitorClientInfo } from "./visitor-address.ts";

/** Issue 38: the PIN page's action calls the API from the server for its visitor. */
const SECRET = "renderer-secret-of-this-process";
const server = { ip: "127.0.0.1", userAgent: "node" };
const requestWith = (headers: Record<string, string | undefined>) =>
  ({ headers }) as unknown as FastifyRequest;

describe("the client a page's server-side call acts for", () => {
  const visitorOf = createVisitorClientInfo(SECRET);

  it("is the visitor the renderer names, beside its secret", () => {
    const request = requestWith({ [INTERNAL_CALL_HEADER]: SECRET, [VISITOR_ADDRESS_HEADER]: "203.0.113.9" });
    expect(visitorOf(request, server)).toEqual({ ip: "203.0.113.9", userAgent: "node" });
  });

  it("is the caller itself without the right secret, or without a visitor", () => {
    for (const headers of [
      { [VISITOR_ADDRESS_HEADER]: "203.0.113.9" },
      { [INTERNAL_CALL_HEADER]: "guessed", [VISITOR_ADDRESS_HEADER]: "203.0.113.9" },
      { [INTERNAL_CALL_HEADER]: `${SECRET}x`, [VISITOR_ADDRESS_HEADER]: "203.0.113.9" },
      { [INTERNAL_CALL_HEADER]: SECRET },
    ])
      expect(visitorOf(requestWith(headers), server)).toBe(server);
  });

  it("believes no one when the server renders no pages (no secret)", () => {
    const request = requestWith({ [INTERNAL_CALL_HEADER]: "", [VISITOR_ADDRESS_HEADER]: "203.0.113.9" });
    expect(createVisitorClientInfo(undefined)(request, server)).toBe(server);
  });
});
