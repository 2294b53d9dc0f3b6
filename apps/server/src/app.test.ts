import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "./test/app.ts";

describe("the API shell", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("answers an unknown API path with a JSON 404 in the error format", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/nope?x=1" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: "error", message: "Route GET /api/nope not found." });
  });

  it("serves the OpenAPI document generated from the route schemas", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths["/api/public/footer/metrics"].get.responses["200"]).toBeDefined();
  });

  it("serves the current build for the client's version check", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/builds/latest.json" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual({ id: expect.any(String), timestamp: expect.any(Number) });
  });

  it("reports its health, including the database", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/healthz" });
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("rejects a malformed JSON body with a 400 in the error format, not a 500", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/public/footer/metrics",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().status).toBe("error");
  });
});
