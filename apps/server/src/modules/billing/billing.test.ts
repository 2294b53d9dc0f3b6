// One file on purpose (issue 16): subscription, invoices and staff plan changes share the fixtures below.
import type {
  InvoiceDocument,
  PlanChangeResult,
  StaffPlanChangeResult,
  Subscription,
} from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.ts";
import { readDataVersion } from "../../db/data-version.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;
let harness: Harness;
let staff: ApiCaller;

beforeAll(async () => {
  harness = await createTestApp();
  staff = await createStaffCaller(harness.app, harness.database);
});
afterAll(() => harness.close());

const sql = () => harness.database.sql;
const YEAR = new Date().getUTCFullYear();

/** A new vendor organisation; the caller is its owner. */
async function vendorOwner() {
  const registered = await registerUser(harness.app, { role: "vendor" });
  const me = (await registered.caller.get("/api/user")).json<{ vendor: { id: number } }>();
  return { ...registered, vendorId: me.vendor.id };
}

/** A signed-in user holding a seat with `role` in the organisation. */
async function seatHolder(vendorId: number, role: "admin" | "member") {
  const registered = await registerUser(harness.app, { role: "researcher" });
  await sql().query("insert into vendor_members (vendor_id, user_id, role) values ($1, $2, $3)", [
    vendorId,
    registered.user.id,
    role,
  ]);
  return registered;
}

async function addMembers(vendorId: number, count: number) {
  for (let index = 0; index < count; index += 1) await seatHolder(vendorId, "member");
}

async function addInvitation(vendorId: number, email: string, expiresIn = "7 days") {
  await sql().query(
    `insert into vendor_invitations (vendor_id, email, token_hash, expires_at)
     values ($1, $2, md5(random()::text), now() + $3::interval)`,
    [vendorId, email, expiresIn],
  );
}

async function addWebhook(vendorId: number) {
  await sql().query(
    `insert into forward_targets (vendor_id, kind, url, secret, status)
     values ($1, 'webhook', 'https://hooks.example/pressguard', 'secret', 'disabled')`,
    [vendorId],
  );
}

async function upgrade(caller: ApiCaller) {
  const response = await caller.post("/api/vendor/subscription", { plan: "premium" });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PlanChangeResult>();
}

const planOf = async (vendorId: number) =>
  (await sql().query<{ plan: string }>("select plan from vendors where id = $1", [vendorId])).rows[0]?.plan;

const planChanges = async (vendorId: number) =>
  (
    await sql().query<{
      from_plan: string;
      to_plan: string;
      via: string;
      provider: string;
      note: string | null;
    }>(
      "select from_plan, to_plan, via, provider, note from vendor_plan_changes where vendor_id = $1 order by id",
      [vendorId],
    )
  ).rows;

const mailsTo = async (address: string) =>
  (
    await sql().query<{ template: string; subject: string; text_body: string }>(
      "select template, subject, text_body from mail_outbox where to_address = $1 and template = 'plan_changed' order by id",
      [address],
    )
  ).rows;

const sequenceOf = (number: string) => Number(number.slice(-6));

describe("the billing provider setting", () => {
  it("defaults to the built-in provider and refuses an unknown one naming the variable", () => {
    expect(loadConfig({ NODE_ENV: "test" }).billingProvider).toBe("builtin");
    expect(() => loadConfig({ NODE_ENV: "test", BILLING_PROVIDER: "stripe" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "test", BILLING_PROVIDER: "stripe" })).toThrow(/BILLING_PROVIDER/);
  });
});

describe("the vendor subscription", () => {
  it("shows the free plan, the plan catalogue, seat usage and no invoices at first", async () => {
    const owner = await vendorOwner();
    const response = await owner.caller.get("/api/vendor/subscription");
    expect(response.statusCode).toBe(200);
    const subscription = response.json<Subscription>();
    expect(subscription).toMatchObject({
      plan: "free",
      seats: { members: 1, invitations: 0, used: 1, limit: 2 },
      webhooks: 0,
      invoices: [],
    });
    expect(
      subscription.plans.map(({ value, label, price, currency }) => [value, label, price, currency]),
    ).toEqual([
      ["free", "Free", "0.00", "USD"],
      ["premium", "Paid", "75.00", "USD"],
    ]);
  });

  it("upgrades to premium with an invoice, a recorded change and an e-mail, and bumps nothing public", async () => {
    const owner = await vendorOwner();
    const before = await readDataVersion(sql());
    const result = await upgrade(owner.caller);
    expect(result.plan).toBe("premium");
    expect(result.seats.limit).toBe(20);
    expect(result.invoice).toMatchObject({
      plan: "premium",
      amount: "75.00",
      currency: "USD",
      status: "paid",
      provider: "builtin",
    });
    const invoice = result.invoice;
    if (!invoice) throw new Error("no invoice");
    expect(invoice.number).toMatch(new RegExp(`^PG-${YEAR}-\\d{6}$`));
    const start = new Date(invoice.period_start);
    const end = new Date(invoice.period_end);
    const expectedEnd = new Date(start);
    expectedEnd.setUTCMonth(expectedEnd.getUTCMonth() + 1);
    // One calendar month (PostgreSQL clamps the 31st to the month's last day).
    expect(end.getTime()).toBeGreaterThan(start.getTime() + 27 * 86_400_000);
    expect(end.getTime()).toBeLessThanOrEqual(expectedEnd.getTime());
    expect(result.invoices).toEqual([invoice]);

    expect(await planOf(owner.vendorId)).toBe("premium");
    expect(await planChanges(owner.vendorId)).toEqual([
      { from_plan: "free", to_plan: "premium", via: "vendor", provider: "builtin", note: null },
    ]);
    const mails = await mailsTo(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Your Pressguard plan is now Paid");
    expect(mails[0]?.text_body).toContain(`Invoice ${invoice.number} for 75.00 USD`);
    expect(mails[0]?.text_body).toContain(`/vdp/account/invoices/${invoice.number}`);
    expect(await readDataVersion(sql())).toBe(before);
  });

  it("numbers invoices uniquely and sequentially when vendors upgrade at the same time", async () => {
    const owners = await Promise.all([vendorOwner(), vendorOwner(), vendorOwner(), vendorOwner()]);
    const results = await Promise.all(owners.map((owner) => upgrade(owner.caller)));
    const numbers = results.map((result) => result.invoice?.number ?? "");
    expect(new Set(numbers).size).toBe(numbers.length);
    const sequence = numbers.map(sequenceOf).sort((a, b) => a - b);
    expect(sequence).toEqual(sequence.map((_, index) => (sequence[0] ?? 0) + index));
    const { rows } = await sql().query<{ number: string }>("select number from invoices order by number");
    const all = rows.map((row) => sequenceOf(row.number));
    expect(all).toEqual(all.map((_, index) => index + 1));
  });

  it("changing to the current plan is a conflict", async () => {
    const owner = await vendorOwner();
    const response = await owner.caller.post("/api/vendor/subscription", { plan: "free" });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("Your organisation is already on the Free plan.");
    expect(await planChanges(owner.vendorId)).toEqual([]);
  });

  it("refuses a downgrade while members and open invitations exceed the free seats, then allows it", async () => {
    const owner = await vendorOwner();
    await upgrade(owner.caller);
    await addMembers(owner.vendorId, 3);
    await addInvitation(owner.vendorId, "open@invitee.example");
    // Expired invitations hold no seat.
    await addInvitation(owner.vendorId, "expired@invitee.example", "-1 day");
    const refused = await owner.caller.post("/api/vendor/subscription", { plan: "free" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "Downgrading to Free leaves 2 seats: remove 3 members or invitations first.",
    );
    expect(await planOf(owner.vendorId)).toBe("premium");

    await sql().query(
      `delete from vendor_members where vendor_id = $1 and role = 'member'
         and user_id in (select user_id from vendor_members where vendor_id = $1 and role = 'member' limit 2)`,
      [owner.vendorId],
    );
    await sql().query("update vendor_invitations set revoked_at = now() where vendor_id = $1", [
      owner.vendorId,
    ]);
    const invoicesBefore = (await owner.caller.get("/api/vendor/subscription")).json<Subscription>().invoices;
    const allowed = await owner.caller.post("/api/vendor/subscription", { plan: "free" });
    expect(allowed.statusCode, allowed.body).toBe(200);
    // A move to the free plan costs nothing and makes no invoice.
    expect(allowed.json<PlanChangeResult>()).toMatchObject({ plan: "free", invoice: null });
    expect(allowed.json<PlanChangeResult>().invoices).toEqual(invoicesBefore);
    expect(await planOf(owner.vendorId)).toBe("free");
    const mails = await mailsTo(owner.email);
    expect(mails.at(-1)?.subject).toBe("Your Pressguard plan is now Free");
    expect(mails.at(-1)?.text_body).toContain("No invoice was issued for this change.");
  });

  it("refuses a downgrade while webhooks exist, naming both problems when both apply", async () => {
    const owner = await vendorOwner();
    await upgrade(owner.caller);
    await addWebhook(owner.vendorId);
    const oneWebhook = await owner.caller.post("/api/vendor/subscription", { plan: "free" });
    expect(oneWebhook.statusCode).toBe(409);
    expect(oneWebhook.json().message).toBe(
      "Downgrading to Free stops webhook forwarding: delete your webhook first.",
    );

    await addWebhook(owner.vendorId);
    await addMembers(owner.vendorId, 2);
    const both = await owner.caller.post("/api/vendor/subscription", { plan: "free" });
    expect(both.statusCode).toBe(409);
    expect(both.json().message).toBe(
      "Downgrading to Free leaves 2 seats: remove 1 member or invitation first. Downgrading to Free stops webhook forwarding: delete your 2 webhooks first.",
    );

    await sql().query("delete from forward_targets where vendor_id = $1", [owner.vendorId]);
    await sql().query(
      `delete from vendor_members where vendor_id = $1 and user_id =
         (select user_id from vendor_members where vendor_id = $1 and role = 'member' limit 1)`,
      [owner.vendorId],
    );
    const allowed = await owner.caller.post("/api/vendor/subscription", { plan: "free" });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it("lets admins change the plan and refuses members", async () => {
    const owner = await vendorOwner();
    const admin = await seatHolder(owner.vendorId, "admin");
    const member = await seatHolder(owner.vendorId, "member");
    for (const [method, url] of [
      ["GET", "/api/vendor/subscription"],
      ["POST", "/api/vendor/subscription"],
    ] as const) {
      const response =
        method === "GET" ? await member.caller.get(url) : await member.caller.post(url, { plan: "premium" });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe("Only the owners and admins of your organisation can do this.");
    }
    expect(await planOf(owner.vendorId)).toBe("free");
    await upgrade(admin.caller);
    expect(await planOf(owner.vendorId)).toBe("premium");
  });

  it("refuses bad bodies with 422", async () => {
    const owner = await vendorOwner();
    for (const body of [
      {},
      { plan: "gold" },
      { plan: "both" },
      { plan: 1 },
      { plan: "premium", extra: true },
    ]) {
      const response = await owner.caller.post("/api/vendor/subscription", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
    }
    const unknownPlan = await owner.caller.post("/api/vendor/subscription", { plan: "gold" });
    expect(unknownPlan.json().errors).toEqual({ plan: ["Plan must be free or premium."] });
    const text = await owner.caller.post("/api/vendor/subscription", "plan=premium", {
      headers: { "content-type": "text/plain" },
    });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
    expect(await planChanges(owner.vendorId)).toEqual([]);
  });
});

describe("invoices", () => {
  it("shows the vendor's own invoice with seller and buyer; another vendor's or a malformed number is 404", async () => {
    const owner = await vendorOwner();
    await owner.caller.put("/api/vendor/account", {
      vendor_name: "Acme Security",
      contact_email: "billing@acme.example",
      contact_person: "Ann Acme",
      timezone: "UTC",
      country: "EE",
    });
    const invoice = (await upgrade(owner.caller)).invoice;
    if (!invoice) throw new Error("no invoice");
    const response = await owner.caller.get(`/api/vendor/invoices/${invoice.number}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<InvoiceDocument>()).toMatchObject({
      ...invoice,
      seller: { name: "Pressguard" },
      buyer: {
        vendor_name: "Acme Security",
        contact_person: "Ann Acme",
        contact_email: "billing@acme.example",
        country: "EE",
      },
    });

    const other = await vendorOwner();
    for (const url of [
      `/api/vendor/invoices/${invoice.number}`,
      "/api/vendor/invoices/PG-2026-999999",
      "/api/vendor/invoices/not-a-number",
      "/api/vendor/invoices/PG-2026-1%27%20or%201=1",
    ]) {
      const answer = await other.caller.get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().message).toBe("Invoice not found.");
    }
    const member = await seatHolder(owner.vendorId, "member");
    expect((await member.caller.get(`/api/vendor/invoices/${invoice.number}`)).statusCode).toBe(403);
  });
});

describe("staff plan changes", () => {
  it("finds vendors by name or contact e-mail with plan and seats", async () => {
    const owner = await vendorOwner();
    const name = `Findable ${Math.random().toString(36).slice(2, 8)}`;
    await sql().query("update vendors set vendor_name = $2 where id = $1", [owner.vendorId, name]);
    await addInvitation(owner.vendorId, "seat@findable.example");
    const byName = await staff.get(`/api/staff/vendors?q=${encodeURIComponent(name.toUpperCase())}`);
    expect(byName.statusCode).toBe(200);
    expect(byName.json<{ data: unknown[] }>().data).toEqual([
      expect.objectContaining({
        id: owner.vendorId,
        vendor_name: name,
        contact_email: owner.email,
        plan: "free",
        seats_used: 2,
        seat_limit: 2,
        webhooks: 0,
      }),
    ]);
    const byEmail = await staff.get(`/api/staff/vendors?q=${encodeURIComponent(owner.email)}`);
    expect(byEmail.json<{ data: { id: number }[] }>().data.map((row) => row.id)).toEqual([owner.vendorId]);
    // Wildcards are matched literally.
    const wildcard = await staff.get("/api/staff/vendors?q=%25");
    expect(wildcard.json<{ data: unknown[] }>().data).toEqual([]);
    const paged = await staff.get("/api/staff/vendors?per_page=1&page=2");
    expect(paged.statusCode).toBe(200);
    expect(paged.json<{ pagination: { current_page: number; per_page: number } }>().pagination).toMatchObject(
      {
        current_page: 2,
        per_page: 1,
      },
    );
  });

  it("records a staff change with via staff, the note, and an invoice marked staff for an upgrade", async () => {
    const owner = await vendorOwner();
    const response = await staff.post(`/api/staff/vendors/${owner.vendorId}/plan`, {
      plan: "premium",
      note: "Paid by bank transfer, ticket 42.",
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<StaffPlanChangeResult>();
    expect(result.vendor).toMatchObject({ id: owner.vendorId, plan: "premium", seat_limit: 20 });
    expect(result.invoice).toMatchObject({
      amount: "75.00",
      currency: "USD",
      status: "paid",
      provider: "staff",
    });
    expect(await planChanges(owner.vendorId)).toEqual([
      {
        from_plan: "free",
        to_plan: "premium",
        via: "staff",
        provider: "staff",
        note: "Paid by bank transfer, ticket 42.",
      },
    ]);
    const mails = await mailsTo(owner.email);
    expect(mails.at(-1)?.text_body).toContain("Our team changed your organisation's plan from Free to Paid.");
    // The vendor sees the invoice staff made.
    const own = (await owner.caller.get("/api/vendor/subscription")).json<Subscription>();
    expect(own.invoices.map((invoice) => invoice.number)).toEqual([result.invoice?.number]);
  });

  it("applies the vendor's downgrade rules and the same-plan rule to staff", async () => {
    const owner = await vendorOwner();
    await upgrade(owner.caller);
    await addWebhook(owner.vendorId);
    const refused = await staff.post(`/api/staff/vendors/${owner.vendorId}/plan`, {
      plan: "free",
      note: "Vendor asked to stop paying.",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "Downgrading to Free stops webhook forwarding: delete your webhook first.",
    );
    const same = await staff.post(`/api/staff/vendors/${owner.vendorId}/plan`, {
      plan: "premium",
      note: "Again.",
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe("This vendor is already on the Paid plan.");
    for (const url of ["/api/staff/vendors/999999/plan", "/api/staff/vendors/abc/plan"]) {
      const missing = await staff.post(url, { plan: "premium", note: "No such vendor." });
      expect(missing.statusCode, url).toBe(404);
    }
  });

  it("refuses non-staff callers (403) and anonymous ones (401)", async () => {
    const owner = await vendorOwner();
    expect((await owner.caller.get("/api/staff/vendors")).statusCode).toBe(403);
    const change = await owner.caller.post(`/api/staff/vendors/${owner.vendorId}/plan`, {
      plan: "premium",
      note: "Upgrading myself.",
    });
    expect(change.statusCode).toBe(403);
    expect(await planOf(owner.vendorId)).toBe("free");
    const anonymous = createApiCaller(harness.app, { ip: "10.77.0.1" });
    expect((await anonymous.get("/api/staff/vendors")).statusCode).toBe(401);
  });

  it("refuses bad staff bodies and queries with 422", async () => {
    const owner = await vendorOwner();
    for (const body of [
      { plan: "premium" },
      { plan: "premium", note: "   " },
      { plan: "premium", note: "x".repeat(501) },
      { plan: "gold", note: "Why not." },
      { plan: "premium", note: "Fine.", force: true },
    ]) {
      const response = await staff.post(`/api/staff/vendors/${owner.vendorId}/plan`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
    }
    for (const query of ["page=0", "per_page=abc", `q=${"x".repeat(201)}`]) {
      expect((await staff.get(`/api/staff/vendors?${query}`)).statusCode, query).toBe(422);
    }
    expect(await planChanges(owner.vendorId)).toEqual([]);
  });
});
