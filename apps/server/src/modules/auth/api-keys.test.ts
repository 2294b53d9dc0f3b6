import { API_KEY_MESSAGES, API_KEY_PREFIX } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPE_MESSAGE } from "../../http/access.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import type { Harness } from "./auth-test-kit.ts";
import { sha256 } from "./credentials.ts";
import { TOKEN_LIFETIME } from "./sessions.ts";

/**
 * Issue 18 (decision 028): login tokens that expire, are listed with the sessions and can be
 * revoked; named API keys with scopes, shown once, listed without their secret, revocable.
 */
let harness: Harness;
beforeAll(async () => {
  harness = await createTestApp({ AUTH_MODE: "token", AUTH_TOKEN_STORAGE: "cookie" });
});
afterAll(() => harness.close());

interface Place {
  id: number;
  kind: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  current: boolean;
}
interface Key {
  id: number;
  name: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
  key?: string;
}

const bearerCaller = (token: string) => {
  const caller = createApiCaller(harness.app);
  caller.setBearer(token);
  return caller;
};

async function tokenSignIn(email: string, password: string, userAgent = "Token client") {
  const answer = await createApiCaller(harness.app).post(
    "/api/login",
    { email, password, token: true },
    { csrf: false, headers: { "user-agent": userAgent } },
  );
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ token: string }>().token;
}

async function createKey(caller: ApiCaller, body: Record<string, unknown>) {
  const created = await caller.post("/api/api-keys", body);
  expect(created.statusCode, created.body).toBe(201);
  return created.json<Key & { key: string }>();
}

/** The hours from now to an ISO time. */
const hoursUntil = (iso: string) => (new Date(iso).getTime() - Date.now()) / 3_600_000;

describe("login tokens (POST /api/login with token: true)", () => {
  it("expire: a token past its expiry answers 401", async () => {
    const { email, password } = await registerUser(harness.app);
    const token = await tokenSignIn(email, password);
    const caller = bearerCaller(token);
    expect((await caller.get("/api/user")).statusCode).toBe(200);
    await harness.database.sql.query(
      "update personal_access_tokens set expires_at = now() - interval '1 second' where token_hash = $1",
      [sha256(token)],
    );
    expect((await caller.get("/api/user")).statusCode).toBe(401);
  });

  it("live 14 days after their last use, never past 30 days after the sign-in", async () => {
    const { email, password } = await registerUser(harness.app);
    const token = await tokenSignIn(email, password);
    const listed = (await bearerCaller(token).get("/api/sessions")).json<{ data: Place[] }>().data;
    const own = listed.find((place) => place.current);
    expect(hoursUntil(own?.expires_at ?? "")).toBeCloseTo(TOKEN_LIFETIME.idleSeconds / 3600, 0);
    // Issued 29 days ago and used now: the expiry slides no further than day 30.
    await harness.database.sql.query(
      `update personal_access_tokens set created_at = now() - interval '29 days', last_used_at = null
       where token_hash = $1`,
      [sha256(token)],
    );
    expect((await bearerCaller(token).get("/api/user")).statusCode).toBe(200);
    const { rows } = await harness.database.sql.query<{ hours: number }>(
      `select extract(epoch from expires_at - now())::float8 / 3600 as hours from personal_access_tokens
       where token_hash = $1`,
      [sha256(token)],
    );
    expect(rows[0]?.hours).toBeGreaterThan(23);
    expect(rows[0]?.hours).toBeLessThanOrEqual(24);
  });

  it("appear in the session list with name, created, last used and expiry, and are revocable there", async () => {
    const { email, password, caller: browser } = await registerUser(harness.app);
    const token = await tokenSignIn(email, password, "deploy-script/1.0");
    expect((await bearerCaller(token).get("/api/user")).statusCode).toBe(200);
    // The cookie-mode browser of the same account sees the token among its sessions.
    const listed = await browser.get("/api/sessions");
    expect(listed.statusCode, listed.body).toBe(200);
    const entry = listed.json<{ data: Place[] }>().data.find((place) => place.kind === "token");
    expect(entry).toMatchObject({ user_agent: "deploy-script/1.0", current: false });
    for (const time of [entry?.created_at, entry?.last_seen_at, entry?.expires_at])
      expect(Number.isNaN(Date.parse(time ?? ""))).toBe(false);
    expect(hoursUntil(entry?.expires_at ?? "")).toBeGreaterThan(24 * 13);

    expect((await browser.delete(`/api/tokens/${entry?.id}`)).statusCode).toBe(204);
    expect((await bearerCaller(token).get("/api/user")).statusCode).toBe(401);
    const after = (await browser.get("/api/sessions")).json<{ data: Place[] }>().data;
    expect(after.some((place) => place.kind === "token")).toBe(false);
  });
});

describe("API keys", () => {
  it("answers the secret once, with its prefix; the list never shows it, only its hash is stored", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const created = await createKey(caller, {
      name: "CI scanner",
      scopes: ["read", "vendor"],
      expires_in_days: 90,
    });
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(created).toMatchObject({ name: "CI scanner", scopes: ["read", "vendor"], last_used_at: null });
    expect(hoursUntil(created.expires_at) / 24).toBeCloseTo(90, 0);

    const listed = await caller.get("/api/api-keys");
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.key);
    expect(listed.body).not.toContain(created.key.slice(API_KEY_PREFIX.length));
    const keys = listed.json<{ data: Key[] }>().data;
    expect(keys).toEqual([
      {
        id: created.id,
        name: "CI scanner",
        scopes: ["read", "vendor"],
        created_at: created.created_at,
        last_used_at: null,
        expires_at: created.expires_at,
      },
    ]);
    const stored = await harness.database.sql.query<{ token_hash: string }>(
      "select token_hash from personal_access_tokens where id = $1",
      [created.id],
    );
    expect(stored.rows[0]?.token_hash).toBe(sha256(created.key));
    // Keys are not sessions: the session list does not show them.
    const places = (await caller.get("/api/sessions")).json<{ data: Place[] }>().data;
    expect(places.some((place) => place.id === created.id && place.kind === "token")).toBe(false);
  });

  it("opens the routes of its scopes only: a read key gets 403 on a vendor route, a vendor key passes", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const readKey = await createKey(caller, { name: "read", scopes: ["read"], expires_in_days: 30 });
    const vendorKey = await createKey(caller, { name: "vendor", scopes: ["vendor"], expires_in_days: 30 });

    const refused = await bearerCaller(readKey.key).get("/api/vendor/reports");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ status: "error", message: API_KEY_SCOPE_MESSAGE });
    expect((await bearerCaller(vendorKey.key).get("/api/vendor/reports")).statusCode).toBe(200);
    // A read key reads public data as anybody does.
    expect((await bearerCaller(readKey.key).get("/api/v1/statistics/counts")).statusCode).toBe(200);
    // No key manages the account: not the sessions, not other keys, not the password.
    for (const key of [readKey.key, vendorKey.key]) {
      expect((await bearerCaller(key).get("/api/sessions")).statusCode).toBe(403);
      expect((await bearerCaller(key).get("/api/user")).statusCode).toBe(403);
      const another = await bearerCaller(key).post("/api/api-keys", {
        name: "more",
        scopes: ["read"],
        expires_in_days: 30,
      });
      expect(another.statusCode).toBe(403);
    }
  });

  it("lets a researcher key call researcher routes and not vendor routes", async () => {
    const { caller } = await registerUser(harness.app, { role: "researcher" });
    const key = await createKey(caller, { name: "r", scopes: ["researcher"], expires_in_days: 365 });
    expect((await bearerCaller(key.key).get("/api/researcher/reports")).statusCode).toBe(200);
    expect((await bearerCaller(key.key).get("/api/vendor/reports")).statusCode).toBe(403);
  });

  it("grants only the scopes the user's roles allow", async () => {
    const { caller } = await registerUser(harness.app, { role: "researcher" });
    const refused = await caller.post("/api/api-keys", {
      name: "too much",
      scopes: ["read", "vendor"],
      expires_in_days: 30,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { scopes: [API_KEY_MESSAGES.scopeNotAllowed] } });
    const invalid = await caller.post("/api/api-keys", { name: " ", scopes: [], expires_in_days: 7 });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toMatchObject({
      errors: {
        name: [API_KEY_MESSAGES.nameRequired],
        scopes: [API_KEY_MESSAGES.scopesRequired],
        expires_in_days: [API_KEY_MESSAGES.lifetime],
      },
    });
  });

  it("never grants staff powers, even to a staff member's key", async () => {
    const staff = await createStaffCaller(harness.app, harness.database);
    expect((await staff.get("/api/staff/reports")).statusCode).toBe(200);
    const key = await createKey(staff, { name: "staff", scopes: ["read"], expires_in_days: 30 });
    expect((await bearerCaller(key.key).get("/api/staff/reports")).statusCode).toBe(403);
  });

  it("records its last use, and answers 401 once revoked", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const key = await createKey(caller, { name: "revoke me", scopes: ["vendor"], expires_in_days: 30 });
    expect((await bearerCaller(key.key).get("/api/vendor/reports")).statusCode).toBe(200);
    const used = (await caller.get("/api/api-keys")).json<{ data: Key[] }>().data[0];
    expect(used?.last_used_at).not.toBeNull();

    expect((await caller.delete(`/api/tokens/${key.id}`)).statusCode).toBe(204);
    expect((await bearerCaller(key.key).get("/api/vendor/reports")).statusCode).toBe(401);
    expect((await caller.get("/api/api-keys")).json<{ data: Key[] }>().data).toEqual([]);
    // Another user cannot revoke it (404, as for a missing one).
    const other = await createKey(caller, { name: "kept", scopes: ["read"], expires_in_days: 30 });
    const stranger = await registerUser(harness.app, { role: "vendor" });
    expect((await stranger.caller.delete(`/api/tokens/${other.id}`)).statusCode).toBe(404);
  });

  it("answers 401 to an unknown or revoked key on the public API too, never serving it as anonymous (issue 38)", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const key = await createKey(caller, { name: "dead", scopes: ["read"], expires_in_days: 30 });
    expect((await bearerCaller(key.key).get("/api/v1/vulnerabilities")).statusCode).toBe(200);
    expect((await caller.delete(`/api/tokens/${key.id}`)).statusCode).toBe(204);
    const unknown = `${API_KEY_PREFIX}${"A".repeat(43)}`;
    for (const dead of [key.key, unknown]) {
      for (const url of ["/api/v1/vulnerabilities", "/api/v1/statistics/counts"])
        expect((await bearerCaller(dead).get(url)).statusCode, url).toBe(401);
      const check = await bearerCaller(dead).post("/api/v1/check", { items: [] });
      expect(check.statusCode).toBe(401);
    }
  });

  it("answers 401 once expired", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const key = await createKey(caller, { name: "short", scopes: ["vendor"], expires_in_days: 30 });
    await harness.database.sql.query(
      "update personal_access_tokens set expires_at = now() - interval '1 second' where id = $1",
      [key.id],
    );
    expect((await bearerCaller(key.key).get("/api/vendor/reports")).statusCode).toBe(401);
    expect((await caller.get("/api/api-keys")).json<{ data: Key[] }>().data).toEqual([]);
  });
});
