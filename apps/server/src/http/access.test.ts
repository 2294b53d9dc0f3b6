import fastifyCookie from "@fastify/cookie";
import type { SessionUser } from "@pressguard/domain";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestAuth } from "./access.ts";
import { type AccessLevel, registerAccessControl } from "./access.ts";
import { registerErrorHandlers } from "./error-handler.ts";

const base: SessionUser = {
  id: 1,
  name: "U",
  email: "u@example.test",
  roles: [],
  vendor: null,
  researcher: null,
  is_staff: false,
  two_factor_enabled: false,
  email_verified: true,
  has_password: true,
};

/** Session secrets the fake authenticator knows, by actor. */
const USERS: Record<string, SessionUser> = {
  researcher: { ...base, roles: ["researcher"], researcher: { uuid: "r", profile_completed: false } },
  vendor: {
    ...base,
    roles: ["vendor"],
    vendor: { id: 1, name: "V", role: "owner", active_count: 0, account_completed: false },
  },
  staffWithout2fa: { ...base, is_staff: true },
  staff: { ...base, is_staff: true, two_factor_enabled: true },
};

const auth = (secret: string): RequestAuth | null => {
  const user = USERS[secret];
  return user ? { user, via: "session", sessionId: 1, tokenId: null, scopes: null } : null;
};

/**
 * The access hook on its own, with one route per level and a fake authenticator: the rules do
 * not depend on which routes happen to exist.
 */
describe("the access hook", () => {
  const app = Fastify();
  beforeAll(async () => {
    registerErrorHandlers(app);
    registerAccessControl(app, {
      authenticator: {
        authenticateSession: async (secret) => auth(secret),
        authenticateToken: async (secret) => auth(secret),
      },
      sessionCookie: "s",
      csrfCookie: "XSRF-TOKEN",
      csrfHeader: "X-XSRF-TOKEN",
      mode: "cookie",
    });
    await app.register(fastifyCookie);
    for (const level of ["public", "user", "researcher", "vendor", "staff"] as AccessLevel[]) {
      app.get(`/api/${level}`, { config: { access: level } }, async () => ({ ok: true }));
      app.post(`/api/${level}`, { config: { access: level } }, async () => ({ ok: true }));
    }
    app.post("/api/issue", { config: { access: "public", issuesToken: true } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (level: string, secret?: string) =>
    app.inject({ method: "GET", url: `/api/${level}`, headers: secret ? { cookie: `s=${secret}` } : {} });

  it("refuses to start a route without an access level", async () => {
    const bare = Fastify();
    registerAccessControl(bare, {
      authenticator: { authenticateSession: async () => null, authenticateToken: async () => null },
      sessionCookie: "s",
      csrfCookie: "XSRF-TOKEN",
      csrfHeader: "X-XSRF-TOKEN",
      mode: "cookie",
    });
    expect(() => bare.get("/api/naked", async () => ({}))).toThrow("declares no access level");
    // The other levels name their key scopes themselves (decision 028): a second list would contradict them.
    expect(() =>
      bare.get("/api/both", { config: { access: "vendor", apiKeyScopes: ["read"] } }, async () => ({})),
    ).toThrow("only a public route names its API key scopes");
    await bare.close();
  });

  it.each([
    ["public", undefined, 200],
    ["user", undefined, 401],
    ["user", "researcher", 200],
    ["researcher", "researcher", 200],
    ["researcher", "vendor", 403],
    ["vendor", "vendor", 200],
    ["vendor", "researcher", 403],
    ["staff", "vendor", 403],
    ["staff", "staffWithout2fa", 403],
    ["staff", "staff", 200],
  ])("GET /api/%s as %s answers %i", async (level, actor, status) => {
    expect((await get(level, actor)).statusCode).toBe(status);
  });

  it("tells staff without a second factor why", async () => {
    expect((await get("staff", "staffWithout2fa")).json().message).toBe(
      "Staff accounts must set up two-factor authentication first.",
    );
  });

  it("checks CSRF before the access level, and skips it for Bearer calls and token requests", async () => {
    const noCsrf = await app.inject({ method: "POST", url: "/api/vendor", headers: { cookie: "s=vendor" } });
    expect(noCsrf.statusCode).toBe(419);
    const withCsrf = await app.inject({
      method: "POST",
      url: "/api/vendor",
      headers: { cookie: "s=vendor; XSRF-TOKEN=abc", "x-xsrf-token": "abc" },
    });
    expect(withCsrf.statusCode).toBe(200);
    const bearer = await app.inject({
      method: "POST",
      url: "/api/vendor",
      headers: { authorization: "Bearer vendor" },
    });
    expect(bearer.statusCode).toBe(200);
    const asksToken = await app.inject({ method: "POST", url: "/api/issue", payload: { token: true } });
    expect(asksToken.statusCode).toBe(200);
    const asksCookie = await app.inject({ method: "POST", url: "/api/issue", payload: { token: false } });
    expect(asksCookie.statusCode).toBe(419);
  });

  it("keeps the CSRF pair for JSON calls in cookie mode (the token-mode JSON rule is token mode's only)", async () => {
    const json = await app.inject({ method: "POST", url: "/api/public", payload: { any: "thing" } });
    expect(json.headers["content-type"]).toMatch(/json/);
    expect(json.statusCode).toBe(419);
    const signedIn = await app.inject({
      method: "POST",
      url: "/api/vendor",
      headers: { cookie: "s=vendor" },
      payload: { any: "thing" },
    });
    expect(signedIn.statusCode).toBe(419);
  });
});
