import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAuthQueries } from "./modules/auth/queries.ts";
import { randomToken, SESSION_IDLE_SECONDS, sha256 } from "./modules/auth/service.ts";
import { createUserFromArguments } from "./modules/users/create-user.ts";
import { type ApiCaller, createApiCaller, registerUser, uniqueEmail } from "./test/api-client.ts";
import { createTestApp } from "./test/app.ts";

/**
 * The authorization matrix (QUALITY.md): every API route × every actor → the expected status, in
 * one table. A route added without a row fails the first test.
 */
const ACTORS = ["anonymous", "researcher", "otherResearcher", "vendor", "otherVendor", "staff"] as const;
type Actor = (typeof ACTORS)[number];
type Expected = Record<Actor, number>;

const all = (status: number): Expected =>
  Object.fromEntries(ACTORS.map((actor) => [actor, status])) as Expected;
const signedIn = (status: number): Expected => ({ ...all(status), anonymous: 401 });

interface Context {
  /** A live session of the researcher actor, made for this cell. */
  researcherSessionId: number;
}

interface Row {
  /** "public": every actor, signed in or not, gets the same answer, and it is not 401, 403 or 5xx. */
  expected: Expected | "public";
  url?: (context: Context) => string;
  body?: () => unknown;
}

const SAMPLE_UUID = "00000000-0000-4000-8000-000000000000";
const publicRow = (url?: string, body?: unknown): Row => ({
  expected: "public",
  ...(url && { url: () => url }),
  ...(body !== undefined && { body: () => body }),
});

const MATRIX: Record<string, Row> = {
  // Public database
  "GET /api/public/footer/metrics": { expected: all(200) },
  "GET /api/v1/vulnerabilities": publicRow(),
  "GET /api/v1/vulnerabilities/{id}": publicRow("/api/v1/vulnerabilities/1"),
  "GET /api/v1/osv/{id}": publicRow("/api/v1/osv/PG-1"),
  "GET /api/v1/statistics/counts": publicRow(),
  "GET /api/v1/products/{platform}/{kind}/{slug}": publicRow("/api/v1/products/wordpress/plugin/akismet"),
  "GET /api/products/{id}/vulnerabilities": publicRow("/api/products/1/vulnerabilities"),
  "GET /api/products/{id}/contributors": publicRow("/api/products/1/contributors"),
  "GET /api/v1/researchers/{uuid}": publicRow(`/api/v1/researchers/${SAMPLE_UUID}`),
  "GET /api/v1/researchers/{uuid}/vulnerabilities": publicRow(
    `/api/v1/researchers/${SAMPLE_UUID}/vulnerabilities`,
  ),
  "POST /api/v1/check": publicRow(undefined, {}),
  "GET /api/v1/leaderboard/{type}": publicRow("/api/v1/leaderboard/all-time"),
  "GET /api/v1/osv": publicRow(),
  "GET /api/v1/programs": publicRow(),
  "GET /api/v1/statistics/{platform}/{timeframe}": publicRow("/api/v1/statistics/wordpress/2025"),
  // Accounts
  "GET /api/csrf-cookie": { expected: all(204) },
  "POST /api/register": {
    expected: all(201),
    body: () => ({
      name: "New",
      email: uniqueEmail("matrix"),
      password: "long enough pw",
      role: "researcher",
    }),
  },
  "POST /api/login": {
    expected: all(422),
    body: () => ({ email: uniqueEmail(), password: "wrong password" }),
  },
  "POST /api/logout": { expected: signedIn(200) },
  "GET /api/user": { expected: signedIn(200) },
  "POST /api/user/roles": { expected: signedIn(200), body: () => ({ role: "researcher" }) },
  "POST /api/user/two-factor": { expected: signedIn(200) },
  // No enrolment was started, so a signed-in caller is told to start again.
  "POST /api/user/two-factor/confirm": { expected: signedIn(422), body: () => ({ code: "123456" }) },
  // Not on for these accounts; staff may never turn it off.
  "POST /api/user/two-factor/disable": {
    expected: { ...signedIn(422), staff: 403 },
    body: () => ({ code: "123456" }),
  },
  "GET /api/sessions": { expected: signedIn(200) },
  "DELETE /api/sessions/{id}": {
    // Only the owner may end a session; for anyone else it does not exist.
    expected: { ...all(404), anonymous: 401, researcher: 204 },
    url: ({ researcherSessionId }) => `/api/sessions/${researcherSessionId}`,
  },
  "POST /api/magic-link": { expected: all(202), body: () => ({ email: uniqueEmail() }) },
  "POST /api/magic-link/{uuid}": {
    expected: all(404),
    url: () => "/api/magic-link/00000000-0000-4000-8000-000000000000",
  },
  "GET /api/email/verify/{token}": { expected: all(303), url: () => "/api/email/verify/unknown" },
  "POST /api/email/verification-notification": { expected: signedIn(202) },
  "POST /api/password/forgot": { expected: all(202), body: () => ({ email: uniqueEmail() }) },
  "POST /api/password/reset": {
    expected: all(422),
    body: () => ({ token: "unknown", password: "long enough pw" }),
  },
  "GET /api/dev/mail": { expected: all(200) },
};

describe("the authorization matrix", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  const userIds = {} as Record<Exclude<Actor, "anonymous">, number>;
  let ipCounter = 0;

  beforeAll(async () => {
    harness = await createTestApp();
    const app = harness.app;
    userIds.researcher = (await registerUser(app, { role: "researcher" })).user.id;
    userIds.otherResearcher = (await registerUser(app, { role: "researcher" })).user.id;
    userIds.vendor = (await registerUser(app, { role: "vendor" })).user.id;
    userIds.otherVendor = (await registerUser(app, { role: "vendor" })).user.id;
    userIds.staff = (
      await createUserFromArguments(harness.database, [
        "--staff",
        "--email",
        uniqueEmail("staff"),
        "--name",
        "Staff",
        "--password",
        "staff password",
      ])
    ).id;
  });
  afterAll(() => harness.close());

  /** A fresh session per cell, so a cell that signs out does not disturb the next one. */
  async function sessionFor(userId: number): Promise<{ secret: string; id: number }> {
    const secret = randomToken();
    const queries = prepareAuthQueries(harness.database.sql);
    await queries.createSession({
      tokenHash: sha256(secret),
      userId,
      userAgent: "matrix",
      ip: "127.0.0.1",
      lifetimeSeconds: SESSION_IDLE_SECONDS,
    });
    const session = await queries.findLiveSession(sha256(secret));
    return { secret, id: session?.id ?? 0 };
  }

  async function callerFor(actor: Actor): Promise<ApiCaller> {
    ipCounter += 1;
    const caller = createApiCaller(harness.app, {
      ip: `10.99.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
    });
    if (actor !== "anonymous")
      caller.cookies.set("pressguard_session", (await sessionFor(userIds[actor])).secret);
    return caller;
  }

  it("has a row for every API route", async () => {
    const document = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const missing = routes.filter((route) => !(route in MATRIX));
    const stale = Object.keys(MATRIX).filter((route) => !routes.includes(route));
    expect(missing, "add a row to MATRIX in apps/server/src/authorization.test.ts").toEqual([]);
    expect(stale).toEqual([]);
  });

  for (const [route, row] of Object.entries(MATRIX)) {
    it(`${route} answers each actor as expected`, async () => {
      const [method, path] = route.split(" ") as ["GET" | "POST" | "DELETE", string];
      const actual: Partial<Expected> = {};
      const expected: Partial<Expected> = {};
      for (const actor of ACTORS) {
        const caller = await callerFor(actor);
        const context: Context = { researcherSessionId: (await sessionFor(userIds.researcher)).id };
        const url = row.url?.(context) ?? path;
        const body = row.body?.();
        const response =
          method === "GET"
            ? await caller.get(url)
            : method === "DELETE"
              ? await caller.delete(url)
              : await caller.post(url, body);
        actual[actor] = response.statusCode;
        if (row.expected !== "public") expected[actor] = row.expected[actor];
      }
      if (row.expected === "public") {
        expect([401, 403]).not.toContain(actual.anonymous);
        expect(actual.anonymous).toBeLessThan(500);
        expect(actual).toEqual(all(actual.anonymous ?? 0));
      } else {
        expect(actual).toEqual(expected);
      }
    });
  }
});
