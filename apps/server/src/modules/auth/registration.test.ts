import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { type Harness, mailboxOf } from "./auth-test-kit.ts";
import { REGISTRATION_SENT_MESSAGE } from "./registration.ts";

/** Registration, the current user and e-mail verification (issue 15: registration tells no address apart). */

let harness: Harness;
const { mailsTo, linkIn } = mailboxOf(() => harness);
beforeAll(async () => {
  // These tests read the mail through the development mailbox, which is off unless switched on.
  harness = await createTestApp({ DEV_MAILBOX: "on" });
});
afterAll(() => harness.close());

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

  it("registers a site owner with no role, who keeps watchlists, and refuses other roles", async () => {
    const { caller, email } = await registerUser(harness.app, { role: "site_owner", name: "Sam" });
    expect((await caller.get("/api/user")).json()).toMatchObject({
      name: "Sam",
      email,
      roles: [],
      vendor: null,
      researcher: null,
      is_staff: false,
    });
    const created = await caller.post("/api/watchlists", { name: "example.com" });
    expect(created.statusCode).toBe(201);
    expect(
      (await caller.get("/api/watchlists"))
        .json<{ data: { name: string }[] }>()
        .data.map((list) => list.name),
    ).toEqual(["example.com"]);
    const refused = await createApiCaller(harness.app).post("/api/register", {
      name: "Nobody",
      email: uniqueEmail("staff"),
      password: "correct horse battery",
      role: "staff",
    });
    expect(refused.statusCode).toBe(422);
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
