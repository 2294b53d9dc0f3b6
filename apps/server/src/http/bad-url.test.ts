import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { repairedUrl } from "./bad-url.ts";

describe("repairedUrl", () => {
  it("reads each % of a segment that does not decode as itself, and keeps the rest as sent", () => {
    expect(repairedUrl("/database/wordpress/plugin/%ff/vulnerabilities/vdp?q=%ff")).toBe(
      "/database/wordpress/plugin/%25ff/vulnerabilities/vdp?q=%ff",
    );
    expect(repairedUrl("/a/%e2%82/%41%20b/100%")).toBe("/a/%25e2%2582/%41%20b/100%25");
    expect(repairedUrl("/database/caf%C3%A9")).toBe("/database/caf%C3%A9");
  });
});

describe("a request whose path is malformed", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("is routed like any other path, so the API answers its own JSON error, not Fastify's", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: "/api/v1/products/wordpress/plugin/%ff",
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: "error" });
    expect(response.body).not.toContain("FST_ERR_BAD_URL");
  });
});
