import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, publicConfigOf } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { createApiCaller, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { startFakeSiteverify } from "./fake-siteverify.ts";
import { CAPTCHA_MESSAGES, createCaptchaService } from "./service.ts";

const SECRET = "test-recaptcha-secret";
const SITE_KEY = "test-recaptcha-site-key";
let siteverify: Awaited<ReturnType<typeof startFakeSiteverify>>;

beforeAll(async () => {
  siteverify = await startFakeSiteverify(SECRET);
});
afterAll(() => siteverify.close());

function recaptchaService(overrides: { secretKey?: string; timeoutMs?: number; verifyUrl?: string } = {}) {
  return createCaptchaService({
    mode: "recaptcha",
    hmacKey: "k".repeat(40),
    recaptcha: {
      secretKey: SECRET,
      verifyUrl: siteverify.url,
      minScore: 0.5,
      timeoutMs: 2_000,
      ...overrides,
    },
  });
}

/** The AppError a verification throws (or null when it passes). */
async function refusalOf(token: string, service = recaptchaService()) {
  try {
    await service.verify(token);
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, message: error.message, fieldErrors: error.fieldErrors };
  }
}

describe("the reCAPTCHA v3 adapter", () => {
  it("accepts a token Google scores as a person for the action submit, asking with the secret", async () => {
    expect(await refusalOf("good")).toBeNull();
    expect(siteverify.asked.at(-1)).toEqual({ secret: SECRET, response: "good" });
  });

  it("refuses what Google refuses, on the captcha field", async () => {
    expect(await refusalOf("invalid")).toEqual({
      status: 422,
      message: CAPTCHA_MESSAGES.invalid,
      fieldErrors: { captcha: [CAPTCHA_MESSAGES.invalid] },
    });
    expect((await refusalOf("duplicate"))?.fieldErrors).toEqual({ captcha: [CAPTCHA_MESSAGES.expired] });
  });

  it("refuses a low score, another action and a v2 token", async () => {
    expect((await refusalOf("low-score"))?.fieldErrors).toEqual({ captcha: [CAPTCHA_MESSAGES.lowScore] });
    expect((await refusalOf("wrong-action"))?.fieldErrors).toEqual({ captcha: [CAPTCHA_MESSAGES.invalid] });
    expect((await refusalOf("v2-token"))?.fieldErrors).toEqual({ captcha: [CAPTCHA_MESSAGES.invalid] });
  });

  it("applies the configured score threshold", async () => {
    const lenient = createCaptchaService({
      mode: "recaptcha",
      hmacKey: "k".repeat(40),
      recaptcha: { secretKey: SECRET, verifyUrl: siteverify.url, minScore: 0.1 },
    });
    expect(await refusalOf("low-score", lenient)).toBeNull();
  });

  it("answers 503, never a pass, when Google cannot be asked or answers nonsense", async () => {
    const unavailable = { status: 503, message: CAPTCHA_MESSAGES.unavailable, fieldErrors: undefined };
    expect(await refusalOf("server-error")).toEqual(unavailable);
    expect(await refusalOf("not-json")).toEqual(unavailable);
    expect(await refusalOf("bad-secret")).toEqual(unavailable);
    expect(await refusalOf("good", recaptchaService({ secretKey: "wrong secret" }))).toEqual(unavailable);
    expect(await refusalOf("good", recaptchaService({ verifyUrl: "http://127.0.0.1:1/siteverify" }))).toEqual(
      unavailable,
    );
  });

  it("gives up on a siteverify that does not answer in time", async () => {
    const started = Date.now();
    expect((await refusalOf("hang", recaptchaService({ timeoutMs: 300 })))?.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("asks Google nothing without a token, and refuses an oversized one", async () => {
    const before = siteverify.asked.length;
    expect((await refusalOf(""))?.fieldErrors).toEqual({ captcha: [CAPTCHA_MESSAGES.required] });
    expect((await refusalOf("x".repeat(10_000)))?.fieldErrors).toEqual({
      captcha: [CAPTCHA_MESSAGES.invalid],
    });
    expect(siteverify.asked.length).toBe(before);
  });
});

describe("POST /api/reports with CAPTCHA=recaptcha", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let ipCounter = 0;
  beforeAll(async () => {
    harness = await createTestApp({
      CAPTCHA: "recaptcha",
      RECAPTCHA_SITE_KEY: SITE_KEY,
      RECAPTCHA_SECRET_KEY: SECRET,
      RECAPTCHA_VERIFY_URL: siteverify.url,
    });
  });
  afterAll(() => harness.close());

  const report = (captcha?: string) => ({
    kind: "plugin",
    product_slug: `recaptcha-plugin-${Math.random().toString(36).slice(2, 8)}`,
    product_name: "Recaptcha Plugin",
    affected_version_prefix: "",
    affected_version: "1.0.0",
    vulnerability_type: 1,
    owasp_category: 43,
    required_privilege: 1,
    title: "SQL injection in the search shortcode",
    description: "The search parameter reaches a raw SQL query in the plugin's shortcode.",
    steps_to_reproduce: "Request /?s=' OR SLEEP(5)-- and observe the five second delay.",
    proof_of_concept: "curl 'https://victim.example/?s=%27%20OR%20SLEEP(5)--%20'",
    email: uniqueEmail("recaptcha"),
    ...(captcha !== undefined && { captcha }),
  });
  const post = (body: unknown) => {
    ipCounter += 1;
    return createApiCaller(harness.app, { ip: `10.67.0.${ipCounter}` }).post("/api/reports", body);
  };
  const reportCount = async () =>
    Number((await harness.database.sql.query<{ n: string }>("select count(*) as n from reports")).rows[0]?.n);

  it("stores a report whose token Google accepts", async () => {
    const response = await post(report("good"));
    expect(response.statusCode, response.body).toBe(201);
  });

  it("refuses a missing, refused or low-scored token with 422 on the captcha field", async () => {
    const before = await reportCount();
    for (const [captcha, message] of [
      [undefined, CAPTCHA_MESSAGES.required],
      ["invalid", CAPTCHA_MESSAGES.invalid],
      ["low-score", CAPTCHA_MESSAGES.lowScore],
      ["wrong-action", CAPTCHA_MESSAGES.invalid],
    ] as const) {
      const response = await post(report(captcha));
      expect(response.statusCode).toBe(422);
      expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({ captcha: [message] });
    }
    expect(await reportCount()).toBe(before);
  });

  it("stores nothing and answers 503 when siteverify fails", async () => {
    const before = await reportCount();
    const response = await post(report("server-error"));
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "error", message: CAPTCHA_MESSAGES.unavailable });
    expect(await reportCount()).toBe(before);
  });

  it("hands out no ALTCHA challenge", async () => {
    const response = await createApiCaller(harness.app).get("/api/captcha/challenge");
    expect(response.statusCode).toBe(404);
  });
});

describe("the captcha configuration", () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig({ NODE_ENV: "test", ...env });
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };

  it("refuses to start in recaptcha mode without both keys", () => {
    const missing = "CAPTCHA: recaptcha needs both RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY";
    expect(problemsOf({ CAPTCHA: "recaptcha" })).toEqual([missing]);
    expect(problemsOf({ CAPTCHA: "recaptcha", RECAPTCHA_SITE_KEY: SITE_KEY })).toEqual([missing]);
    expect(problemsOf({ CAPTCHA: "recaptcha", RECAPTCHA_SECRET_KEY: SECRET })).toEqual([missing]);
    expect(problemsOf({ RECAPTCHA_MIN_SCORE: "2" })[0]).toMatch(/^RECAPTCHA_MIN_SCORE: /);
  });

  it("defaults to Google's siteverify and a 0.5 score", () => {
    const config = loadConfig({
      CAPTCHA: "recaptcha",
      RECAPTCHA_SITE_KEY: SITE_KEY,
      RECAPTCHA_SECRET_KEY: SECRET,
    });
    expect(config.recaptcha).toEqual({
      siteKey: SITE_KEY,
      secretKey: SECRET,
      verifyUrl: "https://www.google.com/recaptcha/api/siteverify",
      minScore: 0.5,
    });
  });

  it("tells the browser which captcha runs, with the site key and never the secret", () => {
    const recaptcha = publicConfigOf(
      loadConfig({ CAPTCHA: "recaptcha", RECAPTCHA_SITE_KEY: SITE_KEY, RECAPTCHA_SECRET_KEY: SECRET }),
      "build",
    );
    expect(recaptcha.captcha).toEqual({ mode: "recaptcha", siteKey: SITE_KEY });
    expect(JSON.stringify(recaptcha)).not.toContain(SECRET);
    expect(publicConfigOf(loadConfig({}), "build").captcha).toEqual({ mode: "altcha" });
    expect(publicConfigOf(loadConfig({ NODE_ENV: "test", CAPTCHA: "off" }), "build").captcha).toEqual({
      mode: "off",
    });
  });
});
