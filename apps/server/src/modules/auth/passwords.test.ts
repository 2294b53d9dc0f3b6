import { FIRST_PASSWORD_WINDOW_MINUTES, PASSWORD_CHANGE_MESSAGES } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { type Harness, mailboxOf } from "./auth-test-kit.ts";

/** The password reset by mailed link and the signed-in user's password change. */

let harness: Harness;
const { mailsTo, linkIn } = mailboxOf(() => harness);
beforeAll(async () => {
  // These tests read the mail through the development mailbox, which is off unless switched on.
  harness = await createTestApp({ DEV_MAILBOX: "on" });
});
afterAll(() => harness.close());

describe("password reset", () => {
  it("resets the password through the mailed link and ends every session", async () => {
    const { caller, email } = await registerUser(harness.app);
    const anonymous = createApiCaller(harness.app, { ip: "10.3.0.1" });
    expect((await anonymous.post("/api/password/forgot", { email })).statusCode).toBe(202);
    const token = new URL(await linkIn(email, "password_reset")).pathname.split("/").pop();
    const reset = await anonymous.post("/api/password/reset", { token, password: "a brand new password" });
    expect(reset.statusCode).toBe(200);
    expect((await caller.get("/api/user")).statusCode).toBe(401);
    const login = await anonymous.post("/api/login", { email, password: "a brand new password" });
    expect(login.statusCode).toBe(200);
    const reuse = await anonymous.post("/api/password/reset", { token, password: "yet another password" });
    expect(reuse.statusCode).toBe(422);
    // ASVS 2.2.3: the owner is told, once, with the way back if it was not them.
    const notices = (await mailsTo(email)).filter((mail) => mail.template === "password_changed");
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toBe("Your Pressguard password was reset");
    expect(notices[0]?.text).toContain("/forgot-password");
  });
});

describe("password change", () => {
  it("changes the password with the current one, ends the other sessions and tokens, keeps this one", async () => {
    const { caller, email, password } = await registerUser(harness.app);
    const otherBrowser = createApiCaller(harness.app);
    expect((await otherBrowser.post("/api/login", { email, password })).statusCode).toBe(200);
    const script = createApiCaller(harness.app);
    script.setBearer(
      (await script.post("/api/login", { email, password, token: true })).json<{ token: string }>().token,
    );
    expect((await script.get("/api/user")).statusCode).toBe(200);

    const change = await caller.put("/api/user/password", {
      current_password: password,
      password: "a brand new password",
    });
    expect(change.statusCode).toBe(200);
    expect(change.json()).toEqual({ message: PASSWORD_CHANGE_MESSAGES.changed });
    expect((await caller.get("/api/user")).statusCode).toBe(200);
    expect((await otherBrowser.get("/api/user")).statusCode).toBe(401);
    expect((await script.get("/api/user")).statusCode).toBe(401);
    const signIn = (secret: string) =>
      createApiCaller(harness.app).post("/api/login", { email, password: secret });
    expect((await signIn(password)).statusCode).toBe(422);
    expect((await signIn("a brand new password")).statusCode).toBe(200);
    const notices = (await mailsTo(email)).filter((mail) => mail.template === "password_changed");
    expect(notices.map((mail) => mail.subject)).toEqual(["Your Pressguard password was changed"]);
    expect(notices[0]?.text).toContain("Every other session and API token of the account was signed out.");
  });

  it("refuses a missing or wrong current password and a new one that breaks the rules", async () => {
    const { caller, password } = await registerUser(harness.app);
    const missing = await caller.put("/api/user/password", { password: "a brand new password" });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ current_password: [PASSWORD_CHANGE_MESSAGES.currentRequired] });
    const wrong = await caller.put("/api/user/password", {
      current_password: "not my password",
      password: "a brand new password",
    });
    expect(wrong.json().errors).toEqual({ current_password: [PASSWORD_CHANGE_MESSAGES.currentWrong] });
    const short = await caller.put("/api/user/password", { current_password: password, password: "short" });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ password: ["The password must be at least 8 characters."] });
    const anonymous = await createApiCaller(harness.app).put("/api/user/password", {
      password: "a brand new password",
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("lets an account without a password (magic link) set a first one, in token mode too", async () => {
    const email = uniqueEmail("magic");
    await harness.database.sql.query(
      "insert into users (name, email, password_hash) values ('Magic', $1, null)",
      [email],
    );
    const anonymous = createApiCaller(harness.app, { ip: "10.3.1.1" });
    await anonymous.post("/api/magic-link", { email });
    const uuid = new URL(await linkIn(email, "magic_link")).pathname.split("/").pop();
    const script = createApiCaller(harness.app);
    script.setBearer(
      (await script.post(`/api/magic-link/${uuid}`, { token: true })).json<{ token: string }>().token,
    );
    const change = await script.put("/api/user/password", { password: "my first password" });
    expect(change.statusCode).toBe(200);
    expect((await script.get("/api/user")).statusCode).toBe(200);
    const login = await anonymous.post("/api/login", { email, password: "my first password" });
    expect(login.statusCode).toBe(200);
  });

  it("sets a first password only soon after signing in, and says so on the user (issue 19)", async () => {
    const email = uniqueEmail("magic-late");
    await harness.database.sql.query(
      "insert into users (name, email, password_hash) values ('Magic', $1, null)",
      [email],
    );
    const browser = createApiCaller(harness.app, { ip: "10.3.1.2" });
    await browser.post("/api/magic-link", { email });
    const uuid = new URL(await linkIn(email, "magic_link")).pathname.split("/").pop();
    expect((await browser.post(`/api/magic-link/${uuid}`, {})).statusCode).toBe(200);
    expect((await browser.get("/api/user")).json()).toMatchObject({ has_password: false });

    // The same session, signed in longer ago than the window: a fresh sign-in is asked for.
    await harness.database.sql.query(
      `update sessions set created_at = now() - make_interval(mins => $2::int)
       where user_id = (select id from users where email = $1)`,
      [email, FIRST_PASSWORD_WINDOW_MINUTES + 1],
    );
    const late = await browser.put("/api/user/password", { password: "my first password" });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors).toEqual({ password: [PASSWORD_CHANGE_MESSAGES.signInAgain] });
    expect((await browser.get("/api/user")).json()).toMatchObject({ has_password: false });

    await harness.database.sql.query(
      "update sessions set created_at = now() where user_id = (select id from users where email = $1)",
      [email],
    );
    expect((await browser.put("/api/user/password", { password: "my first password" })).statusCode).toBe(200);
    expect((await browser.get("/api/user")).json()).toMatchObject({ has_password: true });
  });
});
