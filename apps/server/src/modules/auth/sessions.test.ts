import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import type { Harness } from "./auth-test-kit.ts";
import { prepareAuthQueries } from "./queries.ts";

/** Sessions and personal access tokens: CSRF in cookie mode, Bearer tokens, the places signed in, the clean-up. */

let harness: Harness;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

describe("CSRF protection (cookie mode)", () => {
  it("answers 419 to an unsafe call without the X-XSRF-TOKEN header", async () => {
    const caller = createApiCaller(harness.app);
    const response = await caller.post(
      "/api/login",
      { email: "a@example.test", password: "whatever1" },
      { csrf: false },
    );
    expect(response.statusCode).toBe(419);
    expect(response.json()).toEqual({ status: "error", message: "CSRF token mismatch." });
  });

  it("answers 419 when the header does not match the cookie", async () => {
    const { caller } = await registerUser(harness.app);
    const forged = await harness.app.inject({
      method: "POST",
      url: "/api/logout",
      headers: {
        cookie: [...caller.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        "x-xsrf-token": "forged",
      },
    });
    expect(forged.statusCode).toBe(419);
    // The session survived the forged call.
    expect((await caller.get("/api/user")).statusCode).toBe(200);
  });

  it("sets a readable XSRF-TOKEN cookie and an HttpOnly session cookie", async () => {
    const caller = createApiCaller(harness.app);
    const csrf = await harness.app.inject({ method: "GET", url: "/api/csrf-cookie" });
    expect(csrf.statusCode).toBe(204);
    const xsrf = csrf.cookies.find((cookie) => cookie.name === "XSRF-TOKEN");
    expect(xsrf?.httpOnly).toBeFalsy();
    expect(xsrf?.sameSite).toBe("Lax");
    const { email, password } = await registerUser(harness.app);
    const signedIn = await caller.post("/api/login", { email, password });
    const session = signedIn.cookies.find((cookie) => cookie.name === "pressguard_session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
  });
});

describe("token mode", () => {
  it("issues a token without CSRF, accepts it as Bearer and revokes it on sign-out", async () => {
    const { email, password } = await registerUser(harness.app, { role: "vendor" });
    const caller = createApiCaller(harness.app);
    const login = await caller.post("/api/login", { email, password, token: true }, { csrf: false });
    expect(login.statusCode).toBe(200);
    const { token } = login.json<{ token: string }>();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.cookies.find((cookie) => cookie.name === "pressguard_session")).toBeUndefined();
    caller.setBearer(token);
    expect((await caller.get("/api/user")).json().roles).toEqual(["vendor"]);
    // A Bearer call needs no CSRF header.
    expect((await caller.post("/api/logout")).statusCode).toBe(200);
    expect((await caller.get("/api/user")).statusCode).toBe(401);
  });

  it("stores only a hash of the token", async () => {
    const { email, password } = await registerUser(harness.app);
    const login = await createApiCaller(harness.app).post("/api/login", { email, password, token: true });
    const { token } = login.json<{ token: string }>();
    const { rows } = await harness.database.sql.query(
      "select 1 from personal_access_tokens where token_hash = $1",
      [token],
    );
    expect(rows).toHaveLength(0);
  });

  it("treats an unknown or malformed Bearer token as anonymous, never falling back to the cookie", async () => {
    const { caller } = await registerUser(harness.app);
    for (const authorization of ["Bearer nope", "Basic abc", "Bearer"]) {
      const response = await caller.get("/api/user", { headers: { authorization } });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe("sessions", () => {
  it("lists the user's sessions and revokes another one", async () => {
    const { caller, email, password } = await registerUser(harness.app);
    const laptop = createApiCaller(harness.app);
    await laptop.post("/api/login", { email, password });
    const list = (await caller.get("/api/sessions")).json<{ data: { id: number; current: boolean }[] }>()
      .data;
    expect(list).toHaveLength(2);
    const other = list.find((session) => !session.current);
    expect(list.filter((session) => session.current)).toHaveLength(1);
    expect((await caller.delete(`/api/sessions/${other?.id}`)).statusCode).toBe(204);
    expect((await laptop.get("/api/user")).statusCode).toBe(401);
    expect((await caller.get("/api/user")).statusCode).toBe(200);
  });

  it("slides the expiry on activity and ends an expired session", async () => {
    const { caller, user } = await registerUser(harness.app);
    await harness.database.sql.query(
      `update sessions set last_seen_at = now() - interval '2 minutes', expires_at = now() + interval '1 hour'
       where user_id = $1`,
      [user.id],
    );
    expect((await caller.get("/api/user")).statusCode).toBe(200);
    const { rows } = await harness.database.sql.query<{ days_left: number; seen_seconds_ago: number }>(
      `select extract(epoch from expires_at - now()) / 86400 as days_left,
              extract(epoch from now() - last_seen_at) as seen_seconds_ago
       from sessions where user_id = $1`,
      [user.id],
    );
    expect(Number(rows[0]?.days_left)).toBeGreaterThan(13.9);
    expect(Number(rows[0]?.seen_seconds_ago)).toBeLessThan(60);
    await harness.database.sql.query(
      "update sessions set expires_at = now() - interval '1 second' where user_id = $1",
      [user.id],
    );
    expect((await caller.get("/api/user")).statusCode).toBe(401);
  });

  it("answers 404 when revoking another user's session", async () => {
    const alice = await registerUser(harness.app);
    const bob = await registerUser(harness.app);
    const bobSession = (await bob.caller.get("/api/sessions")).json<{ data: { id: number }[] }>().data[0];
    expect((await alice.caller.delete(`/api/sessions/${bobSession?.id}`)).statusCode).toBe(404);
    expect((await bob.caller.get("/api/user")).statusCode).toBe(200);
  });
});

describe("housekeeping", () => {
  it("prunes spent rate-limit windows, long-dead sessions and old links, and keeps live ones", async () => {
    const { user } = await registerUser(harness.app);
    await harness.database.sql.query(
      `insert into rate_limits (key, hits, reset_at) values
         ('prune:old', 1, now() - interval '1 second'), ('prune:live', 1, now() + interval '1 minute')`,
    );
    await harness.database.sql.query(
      `insert into sessions (token_hash, user_id, expires_at) values ('prune-old', $1, now() - interval '31 days')`,
      [user.id],
    );
    const queries = prepareAuthQueries(harness.database.sql);
    expect(await queries.pruneExpired()).toBeGreaterThanOrEqual(2);
    const limits = await harness.database.sql.query<{ key: string }>(
      "select key from rate_limits where key like 'prune:%'",
    );
    expect(limits.rows.map((row) => row.key)).toEqual(["prune:live"]);
    const sessions = await harness.database.sql.query<{ token_hash: string }>(
      "select token_hash from sessions where user_id = $1",
      [user.id],
    );
    expect(sessions.rows.map((row) => row.token_hash)).not.toContain("prune-old");
    expect(sessions.rows).toHaveLength(1);
  });
});
