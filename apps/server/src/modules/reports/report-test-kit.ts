import { afterAll, beforeAll, expect } from "vitest";
import { type ApiCaller, createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";

/** Shared steps of the report tests: accounts, a report moved along the lifecycle, the mailbox. */

export type Harness = Awaited<ReturnType<typeof createTestApp>>;
/** What the steps need of a harness: the forwarding tests build their app by hand. */
type AppAndDatabase = Pick<Harness, "app" | "database">;

export type Detail = {
  id: string;
  status: string;
  actions: string[];
  fixed_version: string | null;
  comments: { body: string; visibility: string; author: { name: string } | null }[];
  timeline: { action: string; from_state: string | null; to_state: string; note: string | null }[];
};

export type Mail = { template: string; text_body: string };

/** The key the tests that follow e-mailed preview links start their app with. */
export const TEST_PREVIEW_TOKEN_KEY = "preview-token-key-for-tests-0123456789abcdef";

export const sampleReport = (overrides: Record<string, unknown> = {}) => ({
  kind: "plugin",
  product_slug: `kit-plugin-${Math.random().toString(36).slice(2, 8)}`,
  product_name: "Kit Plugin",
  affected_version_prefix: "<=",
  affected_version: "2.4.1",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  title: "Stored XSS through the widget title",
  description: "The widget title is printed on the front end without escaping.",
  steps_to_reproduce: "1. Log in as a contributor. 2. Add the widget. 3. Put a script in its title.",
  proof_of_concept: "Title: <script>alert(document.domain)</script> — runs for every visitor.",
  ...overrides,
});

/** The staff's `validate` transition of a `sampleReport`, with no fixed version and no CVE unless given. */
export const sampleValidation = (overrides: Record<string, unknown> = {}) => ({
  action: "validate",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  affected_version_prefix: "<=",
  affected_version: "2.4.1",
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
  ...overrides,
});

/**
 * Starts a test app and a staff caller before the file's tests (closed after them) and answers the
 * kit bound to them, with `harness` and `staff` readable once the tests run.
 */
export function reportTestApp(env: Record<string, string> = {}) {
  let harness: Harness | undefined;
  let staff: ApiCaller | undefined;
  beforeAll(async () => {
    harness = await createTestApp(env);
    staff = await createStaffCaller(harness.app, harness.database);
  });
  afterAll(() => harness?.close());
  const started = () => {
    if (!harness || !staff) throw new Error("the report test app is not started yet");
    return { harness, staff };
  };
  return {
    ...reportTestKit(
      () => started().harness,
      () => started().staff,
    ),
    get harness() {
      return started().harness;
    },
    get staff() {
      return started().staff;
    },
  };
}

export function reportTestKit(harness: () => AppAndDatabase, staff: () => ApiCaller) {
  let ipCounter = 0;
  const sql = () => harness().database.sql;

  /** A signed-out caller with an address of its own, so per-IP limits never meet another test's. */
  function anonymous() {
    ipCounter += 1;
    return createApiCaller(harness().app, {
      ip: `10.67.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
    });
  }

  async function verified(role: "researcher" | "vendor", overrides: { name?: string } = {}) {
    const account = await registerUser(harness().app, { role, ...overrides });
    await sql().query("update users set email_verified_at = now() where email = $1", [account.email]);
    return account;
  }

  /** A researcher whose e-mail address is verified (PRODUCT.md: reports need a verified address). */
  const researcherAccount = (overrides: { name?: string } = {}) => verified("researcher", overrides);

  async function submit(caller: ApiCaller, overrides: Record<string, unknown> = {}) {
    const response = await caller.post("/api/reports", sampleReport(overrides));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{
      id: string;
      status: string;
      account_created: boolean;
      magic_link_sent: boolean;
    }>();
  }

  async function transition<T = Detail>(id: string, body: Record<string, unknown>, expected = 200) {
    const response = await staff().post(`/api/staff/reports/${id}/transitions`, body);
    expect(response.statusCode, response.body).toBe(expected);
    return response.json<T>();
  }

  /** Submitted by `caller`, taken into review and validated. */
  async function validated(caller: ApiCaller, overrides: Record<string, unknown> = {}) {
    const { id } = await submit(caller, overrides);
    await transition(id, { action: "take_into_review" });
    await transition(id, sampleValidation());
    return id;
  }

  /**
   * Validated, then sent to the vendor: awaiting_fix. A product without a program first gets a
   * contact from staff, as it must before anyone can be notified (issue 19).
   */
  async function awaitingFix(caller: ApiCaller, overrides: Record<string, unknown> = {}) {
    const id = await validated(caller, overrides);
    const report = (await staff().get(`/api/staff/reports/${id}`)).json<{
      product: { id: number; has_active_program: boolean };
    }>();
    if (!report.product.has_active_program) {
      const contact = await staff().get(`/api/staff/products/${report.product.id}/contact`);
      if (contact.json<{ email: string | null }>().email === null)
        expect(
          (
            await staff().put(`/api/staff/products/${report.product.id}/contact`, {
              email: `security-${report.product.id}@vendor.example.test`,
            })
          ).statusCode,
        ).toBe(200);
    }
    await transition(id, { action: "notify_vendor" });
    return id;
  }

  async function mailTo(address: string) {
    const { rows } = await sql().query<Mail>(
      "select template, text_body from mail_outbox where to_address = $1 order by id",
      [address],
    );
    return rows;
  }

  const templatesTo = async (address: string) => (await mailTo(address)).map((mail) => mail.template);

  /** The mails of `template` to `address`, oldest first. */
  const mailOf = async (address: string, template: string) =>
    (await mailTo(address)).filter((mail) => mail.template === template);

  /** The preview token in the first mail of `template` to `address`. */
  const linkToken = async (address: string, template: string) =>
    tokenIn((await mailOf(address, template))[0]?.text_body);

  /** A vendor owner with an active program for `slug`, on `plan` and with `fixDeadlineDays` when given. */
  async function vendorWithProgram(slug: string, options: { plan?: string; fixDeadlineDays?: number } = {}) {
    const vendor = await verified("vendor");
    const created = await vendor.caller.post("/api/products", {
      kind: "plugin",
      name: "Acme Gallery",
      product_url: "https://acme.example/gallery",
      slug,
      vendor_website_url: "https://acme.example",
    });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json<{ id: number }>().id;
    if (options.fixDeadlineDays !== undefined) {
      await sql().query("update products set fix_deadline_days = $2 where id = $1", [
        productId,
        options.fixDeadlineDays,
      ]);
    }
    const activated = await vendor.caller.post(`/api/products/${productId}/activate-product`, {
      is_lobby_product: false,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const account = (await vendor.caller.get("/api/vendor/account")).json<{ contact_email: string | null }>();
    const owner = (
      await sql().query<{ id: number; public_key: string; vendor_name: string }>(
        `select v.id, v.public_key::text as public_key, v.vendor_name from vendors v
         join products p on p.vendor_id = v.id where p.id = $1`,
        [productId],
      )
    ).rows[0];
    const vendorId = owner?.id ?? 0;
    if (options.plan)
      await sql().query("update vendors set plan = $2 where id = $1", [vendorId, options.plan]);
    return {
      ...vendor,
      productId,
      vendorId,
      publicKey: owner?.public_key ?? "",
      vendorName: owner?.vendor_name ?? "",
      contactEmail: account.contact_email ?? vendor.email,
    };
  }

  /** A verified researcher's report on a new vendor's program, validated. */
  async function validatedOnProgram(options: { fixDeadlineDays?: number } = {}) {
    const slug = `kit-program-${Math.random().toString(36).slice(2, 8)}`;
    const vendor = await vendorWithProgram(slug, options);
    const researcher = await researcherAccount();
    const id = await validated(researcher.caller, { product_slug: slug });
    return { id, vendor, researcher };
  }

  /** A verified researcher's report on a new vendor's program, validated and sent to the vendor. */
  async function awaitingFixOnProgram(options: { fixDeadlineDays?: number } = {}) {
    const report = await validatedOnProgram(options);
    await transition(report.id, { action: "notify_vendor" });
    return report;
  }

  /** A lobby product with a contact e-mail, notified: the PIN flow, with the PIN from the mailbox. */
  async function pinReport() {
    const researcher = await researcherAccount();
    const slug = `kit-pin-${Math.random().toString(36).slice(2, 8)}`;
    const contact = uniqueEmail("security");
    const id = await validated(researcher.caller, { product_slug: slug });
    await sql().query("update products set vendor_contact_email = $2 where slug = $1", [slug, contact]);
    await transition(id, { action: "notify_vendor" });
    const mails = await mailTo(contact);
    const pin = /is: ([0-9]{6})/.exec(
      mails.find((mail) => mail.template === "report_pin")?.text_body ?? "",
    )?.[1];
    if (!pin) throw new Error("no PIN e-mail");
    return { id, contact, pin, mails, researcher };
  }

  /** A caller holding the PIN preview cookie of report `id`. */
  async function pinContact(id: string, pin: string) {
    const caller = anonymous();
    const opened = await caller.post(`/api/report-previews/${id}/pin`, { pin });
    expect(opened.statusCode, opened.body).toBe(200);
    return caller;
  }

  return {
    anonymous,
    researcherAccount,
    submit,
    transition,
    validated,
    awaitingFix,
    mailTo,
    templatesTo,
    mailOf,
    linkToken,
    vendorWithProgram,
    validatedOnProgram,
    awaitingFixOnProgram,
    pinReport,
    pinContact,
  };
}

/** The signed token of an e-mail link's `?token=`. */
export function tokenIn(text: string | undefined) {
  const match = /\?token=([A-Za-z0-9_.-]+)/.exec(text ?? "");
  if (!match?.[1]) throw new Error(`no token in ${text}`);
  return match[1];
}
