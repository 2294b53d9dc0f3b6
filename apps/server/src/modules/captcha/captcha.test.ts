import { type Challenge, createChallenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { CAPTCHA_MESSAGES } from "./service.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;
let harness: Harness;
let ipCounter = 0;

const report = (overrides: Record<string, unknown> = {}) => ({
  kind: "theme",
  product_slug: `captcha-theme-${Math.random().toString(36).slice(2, 8)}`,
  product_name: "Captcha Theme",
  affected_version_prefix: "",
  affected_version: "1.0.0",
  vulnerability_type: 1,
  owasp_category: 43,
  required_privilege: 1,
  title: "SQL injection in the search template",
  description: "The search parameter reaches a raw SQL query in the theme's template.",
  steps_to_reproduce: "Request /?s=' OR SLEEP(5)-- and observe the five second delay.",
  proof_of_concept: "curl 'https://victim.example/?s=%27%20OR%20SLEEP(5)--%20'",
  email: uniqueEmail("captcha"),
  ...overrides,
});

function anonymous() {
  ipCounter += 1;
  return createApiCaller(harness.app, { ip: `10.66.0.${ipCounter}` });
}

/** Does what the ALTCHA widget does: fetch a challenge, solve it, base64 the JSON payload. */
async function solvedPayload() {
  const response = await anonymous().get("/api/captcha/challenge");
  expect(response.statusCode).toBe(200);
  expect(response.headers["cache-control"]).toBe("no-store");
  const challenge = response.json<Challenge>();
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

const HMAC_KEY = "k".repeat(40);

beforeAll(async () => {
  harness = await createTestApp({ CAPTCHA: "altcha", CAPTCHA_HMAC_KEY: HMAC_KEY });
});
afterAll(() => harness.close());

describe("the ALTCHA captcha on signed-out reports", () => {
  it("requires a captcha from a signed-out reporter", async () => {
    const response = await anonymous().post("/api/reports", report());
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      captcha: [CAPTCHA_MESSAGES.required],
    });
    const both = await anonymous().post("/api/reports", report({ title: "short" }));
    expect(Object.keys(both.json<{ errors: Record<string, string[]> }>().errors)).toEqual([
      "title",
      "captcha",
    ]);
  });

  it("accepts a solved challenge once and refuses it when reused", async () => {
    const captcha = await solvedPayload();
    const accepted = await anonymous().post("/api/reports", report({ captcha }));
    expect(accepted.statusCode, accepted.body).toBe(201);
    const reused = await anonymous().post("/api/reports", report({ captcha }));
    expect(reused.statusCode).toBe(422);
    expect(reused.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      captcha: [CAPTCHA_MESSAGES.reused],
    });
  });

  it("refuses a tampered or malformed answer", async () => {
    const captcha = await solvedPayload();
    const decoded = JSON.parse(Buffer.from(captcha, "base64").toString("utf8"));
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
    const key: string = decoded.solution.derivedKey;
    const wrongKey = encode({
      ...decoded,
      solution: { ...decoded.solution, derivedKey: `${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}` },
    });
    const cheaper = encode({
      ...decoded,
      challenge: { ...decoded.challenge, parameters: { ...decoded.challenge.parameters, cost: 1 } },
    });
    for (const payload of [wrongKey, cheaper, "not base64 json", "e30="]) {
      const response = await anonymous().post("/api/reports", report({ captcha: payload }));
      expect(response.statusCode).toBe(422);
      expect(response.json<{ errors: Record<string, string[]> }>().errors.captcha).toEqual([
        CAPTCHA_MESSAGES.invalid,
      ]);
    }
  });

  it("refuses an answer to an expired challenge", async () => {
    // Signed with the server's key, but expired a minute ago.
    const challenge = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: 1,
      keyPrefix: "0",
      deriveKey,
      expiresAt: new Date(Date.now() - 60_000),
      hmacSignatureSecret: HMAC_KEY,
    });
    const solution = await solveChallenge({ challenge, deriveKey });
    const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    const response = await anonymous().post("/api/reports", report({ captcha }));
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors.captcha).toEqual([
      CAPTCHA_MESSAGES.expired,
    ]);
  });

  it("keeps an answer unspent when the report itself is refused", async () => {
    const captcha = await solvedPayload();
    const refused = await anonymous().post("/api/reports", report({ captcha, title: "short" }));
    expect(refused.statusCode).toBe(422);
    expect((await anonymous().post("/api/reports", report({ captcha }))).statusCode).toBe(201);
  });

  it("asks no captcha of a signed-in researcher", async () => {
    const researcher = await registerUser(harness.app, { role: "researcher" });
    // Reports need a verified e-mail address (PRODUCT.md).
    await harness.database.sql.query("update users set email_verified_at = now() where email = $1", [
      researcher.email,
    ]);
    const { email: _ignored, ...fields } = report();
    expect((await researcher.caller.post("/api/reports", fields)).statusCode).toBe(201);
  });
});
