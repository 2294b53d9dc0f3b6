import { PASSWORD_CHANGE_MESSAGES } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { prepareAuthQueries } from "./queries.ts";
import { REGISTRATION_SENT_MESSAGE } from "./registration.ts";
import { RATE_LIMITS } from "./rules.ts";
import {
  BAD_CREDENTIALS_MESSAGE,
  LOGIN_BACKOFF_MAX_SECONDS,
  LOGIN_FREE_FAILURES,
  loginBackoffSeconds,
  MAGIC_LINK_MESSAGES,
  MAGIC_LINK_SENT_MESSAGE,
} from "./sign-in.ts";

let harness: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  // These tests read the mail through the development mailbox, which is off unless switched on.
  harness = await createTestApp({ DEV_MAILBOX: "on" });
});
afterAll(() => harness.close());

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  template: string;
}

async function mailsTo(email: string): Promise<Mail[]> {
  const response = await harness.app.inject({ method: "GET", url: "/api/dev/mail?limit=200" });
  return response.json<{ data: Mail[] }>().data.filter((mail) => mail.to === email);
}

async function linkIn(email: string, template: string): Promise<string> {
  const mail = (await mailsTo(email)).find((entry) => entry.template === template);
  const url = mail?.text.match(/https?:\/\/\S+/)?.[0];
  if (!url) throw new Error(`no ${template} mail to ${email}`);
  return url;
}

describe("registration and the current user (cookie mode)", () => {
  it("registers a researcher, signs them in and reports roles and uuid", async () => {
    const { caller, email } = await registerUser(harness.app, { role: "researcher", name: "Ada" });
    const response = await caller.get("/api/user");
    expect(response.statusCode).toBe(200);
    const user = response.json();
    expect(user).toMatchObject({
      name: "Ada",
      email,
      roles: ["researcher"],
      vendor: null,
      is_staff: false,
      email_verified: false,
    });
    expect(user.researcher).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      profile_completed: false,
    });
  });

  it("registers a vendor with an organisation and an active_count of its active products", async () => {
    const { caller, user } = await registerUser(harness.app, { role: "vendor" });
    const vendor = (await caller.get("/api/user")).json<{ vendor: { id: number; active_count: number } }>()
      .vendor;
    expect(user.roles).toEqual(["vendor"]);
    expect(vendor.active_count).toBe(0);
    await harness.database.sql.query(
      `insert into platforms (slug, name) values ('wordpress', 'WordPress') on conflict (slug) do nothing`,
    );
    await harness.database.sql.query(
      `insert into products (platform_id, kind, slug, name, is_active, vendor_id)
       select id, 'plugin', 'p-' || $1::text || '-' || n, 'P', n <= 2, $1::int from platforms, generate_series(1, 3) n
       where slug = 'wordpress'`,
      [vendor.id],
    );
    const after = (await caller.get("/api/user")).json<{ vendor: { active_count: number } }>();
    expect(after.vendor.active_count).toBe(2);
  });

  it("stores the e-mail lower-cased and creates no second account for it", async () => {
    const email = uniqueEmail("Case").toUpperCase();
    const { caller, password } = await registerUser(harness.app, { email });
    expect((await caller.get("/api/user")).json().email).toBe(email.toLowerCase());
    await createApiCaller(harness.app).post("/api/register", {
      name: "Twin",
      email: email.toLowerCase(),
      password: "another password",
      role: "vendor",
    });
    const users = await harness.database.sql.query("select id from users where email = $1", [
      email.toLowerCase(),
    ]);
    expect(users.rows).toHaveLength(1);
    // The owner's password still holds; the stranger's does not.
    const signIn = (secret: string) =>
      createApiCaller(harness.app).post("/api/login", { email: email.toLowerCase(), password: secret });
    expect((await signIn(password)).statusCode).toBe(200);
    expect((await signIn("another password")).statusCode).toBe(422);
  });

  it("answers a known address exactly as a new one, signs nobody in and mails the owner instead", async () => {
    const known = await registerUser(harness.app, { name: "Owner" });
    const register = (email: string) =>
      createApiCaller(harness.app).post("/api/register", {
        name: "Stranger",
        email,
        password: "long enough pw",
        role: "vendor",
      });
    const fresh = uniqueEmail("fresh");
    const [forNew, forKnown] = [await register(fresh), await register(known.email.toUpperCase())];
    for (const answer of [forNew, forKnown]) {
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual({ message: REGISTRATION_SENT_MESSAGE });
      expect(answer.cookies.map((cookie) => cookie.name)).not.toContain("pressguard_session");
    }
    expect(forKnown.body).toBe(forNew.body);
    expect((await mailsTo(fresh)).map((mail) => mail.template)).toEqual(["email_verification"]);
    const toOwner = (await mailsTo(known.email)).filter((mail) => mail.template === "registration_attempt");
    expect(toOwner).toHaveLength(1);
    expect(toOwner[0]?.text).toContain("Hello Owner,");
    expect(toOwner[0]?.text).toContain("/forgot-password");
  });

  it("lets a user add the other role", async () => {
    const { caller } = await registerUser(harness.app, { role: "researcher" });
    const response = await caller.post("/api/user/roles", { role: "vendor" });
    expect(response.statusCode).toBe(200);
    expect(response.json().roles).toEqual(["researcher", "vendor"]);
  });

  it("answers 401 to an anonymous user lookup", async () => {
    const response = await createApiCaller(harness.app).get("/api/user");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: "error", message: "Unauthenticated." });
  });

  it("signs the new account in with its password after registration, as an unverified user", async () => {
    const { caller, email } = await registerUser(harness.app, { role: "vendor" });
    expect((await caller.get("/api/user")).json()).toMatchObject({ email, email_verified: false });
  });

  it("verifies the e-mail address through the mailed link", async () => {
    const { caller, email } = await registerUser(harness.app);
    const url = new URL(await linkIn(email, "email_verification"));
    const visit = await harness.app.inject({ method: "GET", url: url.pathname });
    expect(visit.statusCode).toBe(303);
    expect(visit.headers.location).toBe("/?email_verified=1");
    expect((await caller.get("/api/user")).json().email_verified).toBe(true);
    const again = await harness.app.inject({ method: "GET", url: url.pathname });
    expect(again.headers.location).toBe("/?email_verified=0");
  });
});

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
});

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

// Bad input on every auth endpoint: fuzz.test.ts.

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
