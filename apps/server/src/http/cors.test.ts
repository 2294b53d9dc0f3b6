import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { writeWebBuild } from "../test/tiny-web-build.ts";

/** The public read API may be read by any site's scripts; the signed-in API stays same-origin. */
describe("CORS", () => {
  // With the web handler too: its catch-all route and the preflight route must both find a place.
  const buildDir = mkdtempSync(join(tmpdir(), "pressguard-web-build-"));
  let context: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    writeWebBuild(buildDir);
    context = await createTestApp({}, { mode: "production", buildDir });
  });
  afterAll(async () => {
    await context.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  const ORIGIN = "https://scanner.example";

  it.each([
    "/api/v1/vulnerabilities",
    "/api/v1/products?q=contact",
    "/api/v1/statistics/counts",
    "/api/public/footer/metrics",
    "/api/openapi.json",
  ])("lets any origin read %s, without credentials", async (url) => {
    const response = await context.app.inject({ method: "GET", url, headers: { origin: ORIGIN } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(response.headers["access-control-expose-headers"]).toContain("ETag");
    if (url.startsWith("/api/v1/")) {
      expect(response.headers["access-control-expose-headers"]).toContain("RateLimit-Remaining");
      expect(response.headers["ratelimit-remaining"]).toBeDefined();
    }
  });

  it("answers the preflight of the batch check, before access control", async () => {
    const response = await context.app.inject({
      method: "OPTIONS",
      url: "/api/v1/check",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-methods"]).toContain("POST");
    expect(response.headers["access-control-allow-headers"]).toContain("Content-Type");
  });

  // Issue 38: a browser app elsewhere could not use a key, nor a conditional or ranged request.
  it("lets another origin send an API key and conditional and ranged reads, and read the rate limit", async () => {
    const response = await context.app.inject({
      method: "OPTIONS",
      url: "/api/v1/vulnerabilities",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,if-modified-since,if-none-match,range",
      },
    });
    expect(response.statusCode).toBe(204);
    const allowed = String(response.headers["access-control-allow-headers"]).toLowerCase().split(/,\s*/);
    for (const header of ["authorization", "if-modified-since", "if-none-match", "range"])
      expect(allowed).toContain(header);
    const exposed = String(response.headers["access-control-expose-headers"]).split(/,\s*/);
    for (const header of ["RateLimit-Policy", "RateLimit", "Last-Modified", "Content-Range"])
      expect(exposed).toContain(header);
  });

  it("lets another origin run the batch check without a cookie or CSRF token", async () => {
    const response = await context.app.inject({
      method: "POST",
      url: "/api/v1/check",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      payload: { items: [{ kind: "plugin", slug: "no-such-plugin", version: "1.0" }] },
    });
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toHaveLength(1);
  });

  it.each([
    ["GET", "/api/user"],
    ["GET", "/api/reports/1"],
    ["OPTIONS", "/api/login"],
    ["GET", "/healthz"],
    ["GET", "/database"],
    ["OPTIONS", "/database"],
  ])("shares nothing of %s %s with another origin", async (method, url) => {
    const response = await context.app.inject({
      method: method as "GET" | "OPTIONS",
      url,
      headers: { origin: ORIGIN, "access-control-request-method": "POST" },
    });
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    expect(response.headers["access-control-allow-methods"]).toBeUndefined();
  });
});
