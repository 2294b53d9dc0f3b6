import { contentSecurityPolicy } from "@pressguard/domain";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { registerSecurityHeaders } from "./security-headers.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;

describe("security headers (issue 15)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await createTestApp({ TRUST_PROXY: "on" });
  });
  afterAll(() => harness.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: "GET", url, headers });

  it("sends nosniff, a strict Referrer-Policy and a strict policy on API answers, errors included", async () => {
    for (const url of ["/api/csrf-cookie", "/api/v1/no-such-route", "/healthz"]) {
      const response = await get(url);
      expect(response.headers["x-content-type-options"], url).toBe("nosniff");
      expect(response.headers["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
      const policy = String(response.headers["content-security-policy"]);
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='/);
      expect(policy, url).toContain("object-src 'none'");
      expect(policy, url).toContain("base-uri 'self'");
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).not.toContain("unsafe-eval");
      expect(policy.match(/script-src [^;]*/)?.[0], url).not.toContain("unsafe-inline");
    }
  });

  it("uses a new nonce for every answer", async () => {
    const nonceOf = async () =>
      String((await get("/api/csrf-cookie")).headers["content-security-policy"]).match(
        /'nonce-([^']+)'/,
      )?.[1];
    const [first, second] = [await nonceOf(), await nonceOf()];
    expect(first).toBeTruthy();
    expect(first).not.toBe(second);
  });

  it("never repeats a nonce across refills of its pool, and sends the policy the domain builds", async () => {
    const secure = Fastify();
    const origin = "https://errors.example";
    registerSecurityHeaders(secure, {
      captcha: "recaptcha",
      sentryDsn: `${origin}/1`,
      appUrl: "http://localhost",
      contentSecurityPolicy: true,
    });
    secure.get("/", async () => ({ ok: true }));
    try {
      const nonces = new Set<string>();
      for (let i = 0; i < 600; i++) {
        const policy = String(
          (await secure.inject({ method: "GET", url: "/" })).headers["content-security-policy"],
        );
        const nonce = policy.match(/'nonce-([^']+)'/)?.[1] ?? "";
        expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
        expect(policy).toBe(
          contentSecurityPolicy({ nonce, captcha: "recaptcha", errorReportingOrigin: origin }),
        );
        nonces.add(nonce);
      }
      expect(nonces.size).toBe(600);
    } finally {
      await secure.close();
    }
  });

  it("asks for HSTS only when the request came over https through the trusted proxy", async () => {
    expect((await get("/api/csrf-cookie")).headers["strict-transport-security"]).toBeUndefined();
    const overHttps = await get("/api/csrf-cookie", { "x-forwarded-proto": "https" });
    expect(overHttps.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("always asks for HSTS when APP_URL is https", async () => {
    const secure = Fastify();
    registerSecurityHeaders(secure, {
      captcha: "altcha",
      appUrl: "https://pressguard.example",
      contentSecurityPolicy: true,
    });
    secure.get("/", async () => ({ ok: true }));
    try {
      const response = await secure.inject({ method: "GET", url: "/" });
      expect(response.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await secure.close();
    }
  });
});
