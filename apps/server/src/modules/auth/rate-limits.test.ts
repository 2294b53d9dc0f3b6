import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import type { Harness } from "./auth-test-kit.ts";
import { RATE_LIMITS } from "./rules.ts";
import { LOGIN_BACKOFF_MAX_SECONDS, LOGIN_FREE_FAILURES, loginBackoffSeconds } from "./sign-in.ts";

/** The rate limits of the auth endpoints and the sign-in back-off per (address, account) pair. */

let harness: Harness;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

describe("rate limits", () => {
  const wrongPassword = (email: string, ip: string, password = "wrong password") =>
    createApiCaller(harness.app, { ip }).post("/api/login", { email, password });

  it("never locks the owner out from another address, however often one address guesses wrong", async () => {
    const { email, password } = await registerUser(harness.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1)
      statuses.push((await wrongPassword(email, "10.4.0.1")).statusCode);
    expect(statuses.slice(0, LOGIN_FREE_FAILURES)).toEqual(Array(LOGIN_FREE_FAILURES).fill(422));
    expect(statuses.at(-1)).toBe(429);
    // Attempts spread over many addresses lock nobody out either.
    for (let attempt = 1; attempt <= 12; attempt += 1)
      expect((await wrongPassword(email, `10.4.1.${attempt}`)).statusCode).toBe(422);
    const owner = await createApiCaller(harness.app, { ip: "10.4.0.200" }).post("/api/login", {
      email,
      password,
    });
    expect(owner.statusCode).toBe(200);
  });

  it("makes one address wait twice as long after each further wrong password, and forgets at a success", async () => {
    const { email, password } = await registerUser(harness.app);
    const ip = "10.4.2.1";
    const key = `login:pair:${ip}:${email}`;
    /** Moves the pair's last failure `seconds` into the past. */
    const wait = (seconds: number) =>
      harness.database.sql.query(
        "update rate_limits set reset_at = reset_at - make_interval(secs => $2::int) where key = $1",
        [key, seconds],
      );
    for (let attempt = 0; attempt < LOGIN_FREE_FAILURES; attempt += 1)
      expect((await wrongPassword(email, ip)).statusCode).toBe(422);
    // Even the right password waits: the back-off does not tell right from wrong.
    const held = await wrongPassword(email, ip, password);
    expect(held.statusCode).toBe(429);
    expect(held.headers["retry-after"]).toBe("2");
    expect(held.json().message).toMatch(/^Too many attempts/);
    await wait(2);
    expect((await wrongPassword(email, ip)).statusCode).toBe(422);
    expect((await wrongPassword(email, ip)).headers["retry-after"]).toBe("4");
    await wait(4);
    expect((await wrongPassword(email, ip, password)).statusCode).toBe(200);
    const left = await harness.database.sql.query("select 1 from rate_limits where key = $1", [key]);
    expect(left.rows).toHaveLength(0);
    expect(loginBackoffSeconds(LOGIN_FREE_FAILURES + 20)).toBe(LOGIN_BACKOFF_MAX_SECONDS);
  });

  it("answers 429 after too many magic-link requests from one IP", async () => {
    const caller = createApiCaller(harness.app, { ip: "10.5.0.1" });
    const [allowed] = RATE_LIMITS.magicLinkIp;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= allowed; attempt += 1)
      statuses.push((await caller.post("/api/magic-link", { email: uniqueEmail() })).statusCode);
    expect(statuses.slice(0, allowed).every((status) => status === 202)).toBe(true);
    expect(statuses[allowed]).toBe(429);
  });

  it("answers 429 after too many registrations from one IP", async () => {
    const [allowed] = RATE_LIMITS.registerIp;
    await harness.database.sql.query(
      `insert into rate_limits (key, hits, reset_at) values ('register:ip:10.8.0.1', $1::int, now() + interval '10 minutes')`,
      [allowed],
    );
    const response = await createApiCaller(harness.app, { ip: "10.8.0.1" }).post("/api/register", {
      name: "One too many",
      email: uniqueEmail(),
      password: "long enough pw",
      role: "researcher",
    });
    expect(response.statusCode).toBe(429);
    expect(response.headers["retry-after"]).toBeDefined();
  });

  it("answers 429 after too many password-reset requests for one account", async () => {
    const email = uniqueEmail();
    const [allowed] = RATE_LIMITS.resetAccount;
    let last = { statusCode: 0 };
    for (let attempt = 0; attempt <= allowed; attempt += 1)
      last = await createApiCaller(harness.app, { ip: `10.6.0.${attempt}` }).post("/api/password/forgot", {
        email,
      });
    expect(last.statusCode).toBe(429);
  });

  it("multiplies every limit by AUTH_RATE_LIMIT_FACTOR (load tests send everything from one IP)", async () => {
    const raised = await createTestApp({ AUTH_RATE_LIMIT_FACTOR: "2" });
    try {
      const caller = createApiCaller(raised.app, { ip: "10.9.0.1" });
      const allowed = RATE_LIMITS.magicLinkIp[0] * 2;
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= allowed; attempt += 1)
        statuses.push((await caller.post("/api/magic-link", { email: uniqueEmail() })).statusCode);
      expect(statuses.slice(0, allowed).every((status) => status === 202)).toBe(true);
      expect(statuses[allowed]).toBe(429);
    } finally {
      await raised.close();
    }
  });
});
