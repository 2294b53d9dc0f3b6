import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "./test/api-client.ts";
import { createTestApp } from "./test/app.ts";

/**
 * Issue 15, "Many instances" (decision 022): with CAPTCHA_HMAC_KEY and PREVIEW_TOKEN_KEY unset, each
 * process signed with a random key of its own, so an e-mailed preview link made by one instance was
 * refused by another on the same database, and so was a captcha challenge it had handed out (and
 * every link died with a restart). Unset keys are now generated once and kept in the database.
 */

type Harness = Awaited<ReturnType<typeof createTestApp>>;
let first: Harness;
let second: Harness;

beforeAll(async () => {
  // Neither key is set: the captcha is ALTCHA, as in production.
  first = await createTestApp({ CAPTCHA: "altcha" });
  second = await createTestApp({ CAPTCHA: "altcha" }, undefined, first.database);
}, 120_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const report = (overrides: Record<string, unknown> = {}) => ({
  kind: "plugin",
  product_slug: `signing-keys-${Math.random().toString(36).slice(2, 8)}`,
  product_name: "Signing Keys Plugin",
  affected_version_prefix: "<=",
  affected_version: "1.0.0",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  title: "A link made by one instance, opened on another",
  description: "The uploaded file name is echoed back in the media library without escaping.",
  steps_to_reproduce: "Upload the attached file and open the media library as an administrator.",
  proof_of_concept: "See the attached file: it runs a script in the media library.",
  ...overrides,
});

describe("signing keys left unset, on two instances of one database", () => {
  it("open a preview link e-mailed by one instance on the other", async () => {
    const researcher = await registerUser(first.app, { role: "researcher" });
    await first.database.sql.query("update users set email_verified_at = now() where email = $1", [
      researcher.email,
    ]);
    const submitted = await researcher.caller.post("/api/reports", report());
    expect(submitted.statusCode, submitted.body).toBe(201);
    const { id } = submitted.json<{ id: string }>();
    const { rows } = await first.database.sql.query<{ text_body: string }>(
      "select text_body from mail_outbox where to_address = $1 and template = 'report_received'",
      [researcher.email],
    );
    const token = /\?token=([A-Za-z0-9_.-]+)/.exec(rows[0]?.text_body ?? "")?.[1];
    expect(token).toBeDefined();
    const onSecond = await createApiCaller(second.app, { ip: "10.77.0.1" }).get(
      `/api/reports/${id}?token=${token}`,
    );
    expect(onSecond.statusCode, onSecond.body).toBe(200);
  });

  it("accept on one instance a captcha challenge handed out by the other", async () => {
    const challengeResponse = await createApiCaller(first.app, { ip: "10.77.0.2" }).get(
      "/api/captcha/challenge",
    );
    expect(challengeResponse.statusCode).toBe(200);
    const challenge = challengeResponse.json<Challenge>();
    const solution = await solveChallenge({ challenge, deriveKey });
    const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    const submitted = await createApiCaller(second.app, { ip: "10.77.0.3" }).post(
      "/api/reports",
      report({ captcha, email: uniqueEmail("signing-keys") }),
    );
    expect(submitted.statusCode, submitted.body).toBe(201);
  });

  it("are the same after a restart, and a configured key still wins", async () => {
    const restarted = await createTestApp({ CAPTCHA: "altcha" }, undefined, first.database);
    const configured = await createTestApp(
      { CAPTCHA: "altcha", PREVIEW_TOKEN_KEY: "p".repeat(40) },
      undefined,
      first.database,
    );
    try {
      const { rows } = await first.database.sql.query<{ key: string }>(
        "select key from app_state where key like 'signing_key:%' order by key",
      );
      expect(rows.map((row) => row.key)).toEqual(["signing_key:captcha_hmac", "signing_key:preview_token"]);
      const researcher = await registerUser(first.app, { role: "researcher" });
      await first.database.sql.query("update users set email_verified_at = now() where email = $1", [
        researcher.email,
      ]);
      const { id } = (await researcher.caller.post("/api/reports", report())).json<{ id: string }>();
      const { rows: mails } = await first.database.sql.query<{ text_body: string }>(
        "select text_body from mail_outbox where to_address = $1 and template = 'report_received'",
        [researcher.email],
      );
      const token = /\?token=([A-Za-z0-9_.-]+)/.exec(mails[0]?.text_body ?? "")?.[1];
      const open = (harness: Harness) =>
        createApiCaller(harness.app, { ip: "10.77.0.4" }).get(`/api/reports/${id}?token=${token}`);
      expect((await open(restarted)).statusCode).toBe(200);
      // Signed with the stored key: refused where another key is configured.
      expect((await open(configured)).statusCode).not.toBe(200);
    } finally {
      await configured.close();
      await restarted.close();
    }
  }, 120_000);
});
