import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../db/test-database.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../test/api-client.ts";
import { createTestApp } from "../test/app.ts";
import { clientOf, createApiRateLimiter, INTERNAL_CALL_HEADER } from "./api-rate-limit.ts";
import { registerErrorHandlers } from "./error-handler.ts";

/**
 * The public API's rate limit (issue 18, decision 028): headers on every answer, 429 over the
 * budget, a budget per API key apart from the address's, a batch check weighing its items, one count
 * shared by every instance on the database, and a database fault that costs only the sharing.
 * Windows of a day, so that no test straddles the start of a window.
 */
const WINDOW = "86400";
const BUDGET = 20;

type Harness = Awaited<ReturnType<typeof createTestApp>>;
let harness: Harness;
beforeAll(async () => {
  harness = await createTestApp({
    API_RATE_LIMIT_ANONYMOUS: String(BUDGET),
    API_RATE_LIMIT_KEY: "100",
    API_RATE_LIMIT_WINDOW_SECONDS: WINDOW,
  });
});
afterAll(() => harness.close());

const PUBLIC_READ = "/api/v1/statistics/counts";
const numberHeader = (response: { headers: Record<string, unknown> }, name: string) =>
  Number(response.headers[name]);

/** Waits until `read` gives `expected` (the counts reach the database about once a second). */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  let last = await read();
  while (last !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  expect(last).toBe(expected);
}

const storedHits = (database: Harness["database"], subject: string) => async () => {
  const { rows } = await database.sql.query<{ hits: number }>(
    "select hits from rate_limits where key like $1",
    [`api:${subject}:%`],
  );
  return rows[0]?.hits ?? 0;
};

describe("the public API's rate limit", () => {
  it("sends RateLimit-Limit, -Remaining and -Reset (seconds) on every answer, cached ones too", async () => {
    const caller = createApiCaller(harness.app, { ip: "10.77.1.1" });
    const first = await caller.get(PUBLIC_READ);
    expect(first.statusCode).toBe(200);
    expect(numberHeader(first, "ratelimit-limit")).toBe(BUDGET);
    expect(numberHeader(first, "ratelimit-remaining")).toBe(BUDGET - 1);
    const reset = numberHeader(first, "ratelimit-reset");
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(Number(WINDOW));
    // Issue 38: the current draft's structured fields too (draft-ietf-httpapi-ratelimit-headers-10).
    expect(first.headers["ratelimit-policy"]).toBe(`"anonymous";q=${BUDGET};w=${WINDOW}`);
    expect(first.headers.ratelimit).toBe(`"anonymous";r=${BUDGET - 1};t=${reset}`);
    // The second answer comes from the response store, and still counts.
    const second = await caller.get(PUBLIC_READ);
    expect(numberHeader(second, "ratelimit-remaining")).toBe(BUDGET - 2);
    // A unique query parameter makes a new entry in the store, and costs the budget like any request.
    const unique = await caller.get(`${PUBLIC_READ}?_=${Date.now()}`);
    expect(numberHeader(unique, "ratelimit-remaining")).toBe(BUDGET - 3);
  });

  it("answers 429 with Retry-After and the usual error body once the budget is spent", async () => {
    const caller = createApiCaller(harness.app, { ip: "10.77.2.1" });
    for (let request = 0; request < BUDGET; request += 1)
      expect((await caller.get(`${PUBLIC_READ}?n=${request}`)).statusCode).toBe(200);
    const refused = await caller.get(PUBLIC_READ);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(numberHeader(refused, "ratelimit-remaining")).toBe(0);
    expect(numberHeader(refused, "ratelimit-reset")).toBe(retryAfter);
    expect(refused.json()).toEqual({
      status: "error",
      message: `Too many requests. Please try again in ${retryAfter} seconds.`,
    });
    // Another address is not held back, nor are the routes outside /api/v1.
    expect((await createApiCaller(harness.app, { ip: "10.77.2.2" }).get(PUBLIC_READ)).statusCode).toBe(200);
    expect((await caller.get("/api/csrf-cookie")).statusCode).toBe(204);
  });

  it("weighs a batch check by its items: 500 items cost 11", async () => {
    const caller = createApiCaller(harness.app, { ip: "10.77.3.1" });
    const items = Array.from({ length: 500 }, (_, index) => ({
      kind: "plugin",
      slug: `unseen-plugin-${index}`,
      version: "1.0.0",
    }));
    const checked = await caller.post("/api/v1/check", { items }, { csrf: false });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(numberHeader(checked, "ratelimit-remaining")).toBe(BUDGET - 11);
    const small = await caller.post("/api/v1/check", { items: items.slice(0, 49) }, { csrf: false });
    expect(numberHeader(small, "ratelimit-remaining")).toBe(BUDGET - 12);
    // One batch more than the budget holds is refused before it runs.
    expect((await caller.post("/api/v1/check", { items }, { csrf: false })).statusCode).toBe(429);
  });

  it("gives an API key a budget of its own, higher than an address's; a read key is anonymous otherwise", async () => {
    const ip = "10.77.4.1";
    const { caller } = await registerUser(harness.app, { role: "researcher", ip });
    const created = await caller.post("/api/api-keys", {
      name: "bot",
      scopes: ["read"],
      expires_in_days: 30,
    });
    expect(created.statusCode, created.body).toBe(201);
    const keyCaller: ApiCaller = createApiCaller(harness.app, { ip });
    keyCaller.setBearer(created.json<{ key: string }>().key);
    const keyed = await keyCaller.get(PUBLIC_READ);
    expect(numberHeader(keyed, "ratelimit-limit")).toBe(100);
    expect(numberHeader(keyed, "ratelimit-remaining")).toBe(99);
    // The same address without the key has its own, untouched budget.
    const anonymous = await createApiCaller(harness.app, { ip }).get(PUBLIC_READ);
    expect(numberHeader(anonymous, "ratelimit-remaining")).toBe(BUDGET - 1);
    // A made-up key is refused (issue 38: never served as anonymous), before it is counted.
    const forged = createApiCaller(harness.app, { ip });
    forged.setBearer("pgk_not-a-real-key");
    expect((await forged.get(PUBLIC_READ)).statusCode).toBe(401);
    const again = await createApiCaller(harness.app, { ip }).get(PUBLIC_READ);
    expect(numberHeader(again, "ratelimit-remaining")).toBe(BUDGET - 2);
  });

  it("shares one count between two instances on one database", async () => {
    const other = await createTestApp(
      { API_RATE_LIMIT_ANONYMOUS: String(BUDGET), API_RATE_LIMIT_WINDOW_SECONDS: WINDOW },
      undefined,
      harness.database,
    );
    try {
      const ip = "10.77.5.1";
      const onFirst = createApiCaller(harness.app, { ip });
      const onSecond = createApiCaller(other.app, { ip });
      for (let request = 0; request < 15; request += 1)
        expect((await onFirst.get(PUBLIC_READ)).statusCode).toBe(200);
      await eventually(storedHits(harness.database, `ip:${ip}`), 15);
      // The second instance adds its own request and, at its next write, learns the total.
      expect((await onSecond.get(PUBLIC_READ)).statusCode).toBe(200);
      await eventually(storedHits(harness.database, `ip:${ip}`), 16);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const statuses: number[] = [];
      for (let request = 0; request < 5; request += 1)
        statuses.push((await onSecond.get(PUBLIC_READ)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await other.close();
    }
  });

  it("counts each client behind the trusted proxy apart (TRUST_PROXY)", async () => {
    const proxied = await createTestApp(
      { API_RATE_LIMIT_ANONYMOUS: "3", API_RATE_LIMIT_WINDOW_SECONDS: WINDOW, TRUST_PROXY: "on" },
      undefined,
      harness.database,
    );
    try {
      const from = (client: string) =>
        createApiCaller(proxied.app, { ip: "127.0.0.1" }).get(PUBLIC_READ, {
          headers: { "x-forwarded-for": client },
        });
      for (let request = 0; request < 3; request += 1)
        expect((await from("203.0.113.7")).statusCode).toBe(200);
      expect((await from("203.0.113.7")).statusCode).toBe(429);
      expect((await from("203.0.113.8")).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe("the limiter on its own", () => {
  it("groups an IPv6 client by its /64, and an IPv4-mapped address as IPv4", () => {
    expect(clientOf("2001:db8:1:2:aaaa::1")).toBe(clientOf("2001:db8:1:2:bbbb::9"));
    expect(clientOf("2001:db8:1:2:aaaa::1")).not.toBe(clientOf("2001:db8:1:3::1"));
    expect(clientOf("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientOf("192.0.2.1")).toBe("192.0.2.1");
  });

  it("does not count the page renderer's own calls, which carry the process's secret", async () => {
    const database = await openTestDatabase();
    const app = Fastify();
    try {
      registerErrorHandlers(app);
      const limiter = createApiRateLimiter({
        sql: database.sql,
        windowSeconds: 86_400,
        anonymousBudget: 1,
        keyBudget: 1,
        apiKeyOf: () => null,
        internalSecret: "renderer-secret",
        log: { warn() {}, info() {} },
      });
      limiter.register(app);
      app.get("/api/v1/thing", () => ({ ok: true }));
      await app.ready();
      const call = (headers: Record<string, string> = {}) =>
        app.inject({ method: "GET", url: "/api/v1/thing", headers });
      for (let request = 0; request < 3; request += 1)
        expect((await call({ [INTERNAL_CALL_HEADER]: "renderer-secret" })).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      expect((await call({ [INTERNAL_CALL_HEADER]: "a guess" })).statusCode).toBe(429);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it("keeps counting in memory and logs once when the database fails, and shares again when it is back", async () => {
    const database = await openTestDatabase();
    let broken = false;
    const warnings: string[] = [];
    const recoveries: string[] = [];
    const limiter = createApiRateLimiter({
      // The real database, behind a switch that makes its statements fail like a lost connection.
      sql: {
        query: (text, params) =>
          broken ? Promise.reject(new Error("connection terminated")) : database.sql.query(text, params),
        transaction: (work) => database.sql.transaction(work),
      },
      windowSeconds: 86_400,
      anonymousBudget: 5,
      keyBudget: 5,
      apiKeyOf: () => null,
      log: {
        warn: (_object, message) => warnings.push(message),
        info: (message) => recoveries.push(message),
      },
    });
    try {
      broken = true;
      expect(limiter.hit("ip:a", 5, 2).allowed).toBe(true);
      await limiter.flush();
      expect(limiter.hit("ip:a", 5, 2).allowed).toBe(true);
      await limiter.flush();
      expect(warnings).toHaveLength(1);
      // Still counted: 4 of 5 used.
      expect(limiter.hit("ip:a", 5, 2).allowed).toBe(false);
      broken = false;
      expect(limiter.hit("ip:a", 5, 1).allowed).toBe(true);
      await limiter.flush();
      expect(recoveries).toHaveLength(1);
      const { rows } = await database.sql.query<{ hits: number }>(
        "select hits from rate_limits where key like 'api:ip:a:%'",
      );
      // What was counted during the fault is written once the database is back.
      expect(rows[0]?.hits).toBe(5);
      expect(limiter.hit("ip:a", 5, 1).allowed).toBe(false);
    } finally {
      await limiter.stop();
      await database.close();
    }
  });
});
