import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { type Harness, mailboxOf } from "./auth-test-kit.ts";
import { BAD_CREDENTIALS_MESSAGE, MAGIC_LINK_MESSAGES, MAGIC_LINK_SENT_MESSAGE } from "./sign-in.ts";

/** Signing in and out with a password or a magic link (the second factor: two-factor.test.ts). */

let harness: Harness;
const { mailsTo, linkIn } = mailboxOf(() => harness);
beforeAll(async () => {
  // These tests read the mail through the development mailbox, which is off unless switched on.
  harness = await createTestApp({ DEV_MAILBOX: "on" });
});
afterAll(() => harness.close());

describe("sign-in and sign-out", () => {
  it("signs in with the password and signs out on the server", async () => {
    const { email, password } = await registerUser(harness.app);
    const caller = createApiCaller(harness.app);
    const login = await caller.post("/api/login", { email: email.toUpperCase(), password });
    expect(login.statusCode).toBe(200);
    expect(login.json().email).toBe(email);
    const cookie = caller.cookies.get("pressguard_session");
    expect((await caller.post("/api/logout")).statusCode).toBe(200);
    expect((await caller.get("/api/user")).statusCode).toBe(401);
    // The old cookie no longer opens the session: it ended on the server, not just in the browser.
    const replay = await harness.app.inject({
      method: "GET",
      url: "/api/user",
      headers: { cookie: `pressguard_session=${cookie}` },
    });
    expect(replay.statusCode).toBe(401);
  });

  it("gives one generic message for a wrong password and for an unknown e-mail", async () => {
    const { email } = await registerUser(harness.app);
    const caller = createApiCaller(harness.app, { ip: "10.1.0.1" });
    const wrongPassword = await caller.post("/api/login", { email, password: "not the password" });
    const unknownEmail = await caller.post("/api/login", {
      email: uniqueEmail(),
      password: "not the password",
    });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        status: "error",
        message: BAD_CREDENTIALS_MESSAGE,
        errors: { email: [BAD_CREDENTIALS_MESSAGE] },
      });
    }
  });

  it("answers 401 to a sign-out without a session", async () => {
    const response = await createApiCaller(harness.app).post("/api/logout");
    expect(response.statusCode).toBe(401);
  });
});

describe("magic links", () => {
  it("answers the same whether or not the address has an account, and mails only existing ones", async () => {
    const { email } = await registerUser(harness.app);
    const unknown = uniqueEmail("nobody");
    const caller = createApiCaller(harness.app, { ip: "10.2.0.1" });
    const known = await caller.post("/api/magic-link", { email });
    const missing = await caller.post("/api/magic-link", { email: unknown });
    expect(known.statusCode).toBe(202);
    expect(missing.statusCode).toBe(202);
    expect(known.json()).toEqual({ message: MAGIC_LINK_SENT_MESSAGE });
    expect(missing.json()).toEqual(known.json());
    expect(await mailsTo(unknown)).toHaveLength(0);
    const mail = (await mailsTo(email)).find((entry) => entry.template === "magic_link");
    expect(mail?.subject).toBe("Your Pressguard sign-in link");
    expect(mail?.html).toContain("/login/magic-link/");
  });

  it("signs in once with a link, then refuses it as used", async () => {
    const { email } = await registerUser(harness.app, { role: "vendor" });
    const caller = createApiCaller(harness.app, { ip: "10.2.0.2" });
    await caller.post("/api/magic-link", { email });
    const uuid = new URL(await linkIn(email, "magic_link")).pathname.split("/").pop();
    const first = await caller.post(`/api/magic-link/${uuid}`);
    expect(first.statusCode).toBe(200);
    expect(first.json().roles).toEqual(["vendor"]);
    expect(first.json().email_verified).toBe(true);
    expect((await caller.get("/api/user")).statusCode).toBe(200);
    const second = await createApiCaller(harness.app).post(`/api/magic-link/${uuid}`);
    expect(second.statusCode).toBe(410);
    expect(second.json().message).toBe(MAGIC_LINK_MESSAGES.used);
  });

  it("refuses an expired link and an unknown one", async () => {
    const { email } = await registerUser(harness.app);
    const caller = createApiCaller(harness.app, { ip: "10.2.0.3" });
    await caller.post("/api/magic-link", { email });
    const uuid = new URL(await linkIn(email, "magic_link")).pathname.split("/").pop();
    await harness.database.sql.query(
      `update one_time_tokens set expires_at = now() - interval '1 second'
       where kind = 'magic_link' and user_id = (select id from users where email = $1)`,
      [email],
    );
    const expired = await caller.post(`/api/magic-link/${uuid}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(MAGIC_LINK_MESSAGES.expired);
    const unknown = await caller.post("/api/magic-link/00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(MAGIC_LINK_MESSAGES.unknown);
  });
});

// Bad input on every auth endpoint: fuzz.test.ts.
