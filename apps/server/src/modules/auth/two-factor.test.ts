import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createUserFromArguments } from "../users/create-user.ts";
import { TWO_FACTOR_MESSAGES } from "./sign-in.ts";
import { acceptedStep, createTotpSecret, currentCode } from "./two-factor.ts";

let harness: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  // These tests read the mail through the development mailbox, which is off unless switched on.
  harness = await createTestApp({ DEV_MAILBOX: "on" });
});
afterAll(() => harness.close());

const STEP_MS = 30_000;

/** Registers a user and turns TOTP on; returns the secret. */
async function enrolledUser() {
  const registered = await registerUser(harness.app);
  const start = await registered.caller.post("/api/user/two-factor");
  expect(start.statusCode).toBe(200);
  const { secret, otpauth_url } = start.json<{ secret: string; otpauth_url: string }>();
  expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Pressguard:/);
  const confirm = await registered.caller.post("/api/user/two-factor/confirm", { code: currentCode(secret) });
  expect(confirm.statusCode).toBe(200);
  expect(confirm.json().two_factor_enabled).toBe(true);
  return { ...registered, secret };
}

describe("TOTP codes", () => {
  it("accepts the current code and one step of drift, nothing else", () => {
    const secret = createTotpSecret();
    const now = Date.now();
    expect(acceptedStep(secret, currentCode(secret, now), now)).toBe(Math.floor(now / STEP_MS));
    expect(acceptedStep(secret, currentCode(secret, now - STEP_MS), now)).not.toBeNull();
    expect(acceptedStep(secret, currentCode(secret, now - 3 * STEP_MS), now)).toBeNull();
    expect(acceptedStep(secret, "12345x", now)).toBeNull();
  });
});

describe("two-factor sign-in", () => {
  it("refuses to turn on with a wrong code", async () => {
    const { caller } = await registerUser(harness.app);
    const { secret } = (await caller.post("/api/user/two-factor")).json<{ secret: string }>();
    const wrong = String((Number(currentCode(secret)) + 1) % 1_000_000).padStart(6, "0");
    const confirm = await caller.post("/api/user/two-factor/confirm", { code: wrong });
    expect(confirm.statusCode).toBe(422);
    expect(confirm.json().errors).toEqual({ code: [TWO_FACTOR_MESSAGES.invalid] });
    expect((await caller.get("/api/user")).json().two_factor_enabled).toBe(false);
  });

  it("asks for the code after the right password, and accepts each code once", async () => {
    const { email, password, secret } = await enrolledUser();
    const caller = createApiCaller(harness.app, { ip: "10.7.0.1" });
    const withoutCode = await caller.post("/api/login", { email, password });
    expect(withoutCode.statusCode).toBe(422);
    expect(withoutCode.json()).toMatchObject({
      message: TWO_FACTOR_MESSAGES.required,
      errors: { code: [TWO_FACTOR_MESSAGES.required] },
    });
    // The wrong password still gets the generic answer, not a hint that a code is needed.
    const wrongPassword = await caller.post("/api/login", { email, password: "wrong password" });
    expect(wrongPassword.json().message).toBe("These credentials do not match our records.");
    // The next step's code: the confirmation already spent the current one.
    const code = currentCode(secret, Date.now() + STEP_MS);
    const signedIn = await caller.post("/api/login", { email, password, code });
    expect(signedIn.statusCode).toBe(200);
    const replay = await createApiCaller(harness.app, { ip: "10.7.0.2" }).post("/api/login", {
      email,
      password,
      code,
    });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().message).toBe(TWO_FACTOR_MESSAGES.invalid);
  });

  it("sends no magic link to an account with a second factor", async () => {
    const { email } = await enrolledUser();
    await createApiCaller(harness.app, { ip: "10.7.0.3" }).post("/api/magic-link", { email });
    const mails = (await harness.app.inject({ method: "GET", url: "/api/dev/mail?limit=200" })).json<{
      data: { to: string; template: string }[];
    }>().data;
    expect(mails.filter((mail) => mail.to === email && mail.template === "magic_link")).toHaveLength(0);
  });

  it("tells a signed-out reporter with a second factor to sign in with password and code", async () => {
    const { email } = await enrolledUser();
    const report = await createApiCaller(harness.app, { ip: "10.7.0.4" }).post("/api/reports", {
      kind: "plugin",
      product_slug: "two-factor-reporter-plugin",
      product_name: "Two Factor Reporter Plugin",
      affected_version_prefix: "",
      affected_version: "1.0.0",
      vulnerability_type: 1,
      owasp_category: 43,
      required_privilege: 1,
      title: "SQL injection in the search shortcode",
      description: "The search parameter reaches a raw SQL query in the plugin's shortcode.",
      steps_to_reproduce: "Request /?s=' OR SLEEP(5)-- and observe the five second delay.",
      proof_of_concept: "curl 'https://victim.example/?s=%27%20OR%20SLEEP(5)--%20'",
      email,
    });
    expect(report.statusCode, report.body).toBe(201);
    expect(report.json()).toMatchObject({
      account_created: false,
      magic_link_sent: false,
      two_factor_required: true,
    });
    const mails = (await harness.app.inject({ method: "GET", url: "/api/dev/mail?limit=200" })).json<{
      data: { to: string; template: string }[];
    }>().data;
    expect(mails.filter((mail) => mail.to === email && mail.template === "magic_link")).toHaveLength(0);
  });

  it("turns off with a current code", async () => {
    const { caller, secret } = await enrolledUser();
    const off = await caller.post("/api/user/two-factor/disable", {
      code: currentCode(secret, Date.now() + STEP_MS),
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().two_factor_enabled).toBe(false);
  });

  it("does not let staff turn it off", async () => {
    const email = `staff-${Date.now()}@example.test`;
    await createUserFromArguments(harness.database, [
      "--staff",
      "--email",
      email,
      "--name",
      "Staff",
      "--password",
      "staff password",
    ]);
    const caller = createApiCaller(harness.app, { ip: "10.7.0.4" });
    await caller.post("/api/login", { email, password: "staff password" });
    const { secret } = (await caller.post("/api/user/two-factor")).json<{ secret: string }>();
    await caller.post("/api/user/two-factor/confirm", { code: currentCode(secret) });
    const off = await caller.post("/api/user/two-factor/disable", {
      code: currentCode(secret, Date.now() + STEP_MS),
    });
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(TWO_FACTOR_MESSAGES.staffMustKeep);
  });
});
