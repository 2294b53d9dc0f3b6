import { expect } from "vitest";
import { type ApiCaller, createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import type { createTestApp } from "../../test/app.ts";

/** Shared steps of the report tests: accounts, a report moved along the lifecycle, the mailbox. */

export type Harness = Awaited<ReturnType<typeof createTestApp>>;

export type Detail = {
  id: string;
  status: string;
  actions: string[];
  fixed_version: string | null;
  comments: { body: string; visibility: string; author: { name: string } | null }[];
  timeline: { action: string; from_state: string | null; to_state: string; note: string | null }[];
};

export const sampleReport = (overrides: Record<string, unknown> = {}) => ({
  kind: "plugin",
  product_slug: `kit-plugin-${Math.random().toString(36).slice(2, 8)}`,
  product_name: "Kit Plugin",
  affected_version_prefix: "<=",
  affected_version: "1.2.0",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  title: "Stored XSS in the gallery caption",
  description: "The caption is printed on the front end without escaping it first.",
  steps_to_reproduce: "1. Log in as an author. 2. Add a gallery. 3. Put a script in a caption.",
  proof_of_concept: "Caption: <script>alert(document.domain)</script>",
  ...overrides,
});

export function reportTestKit(harness: () => Harness, staff: () => ApiCaller) {
  let ipCounter = 0;
  const sql = () => harness().database.sql;

  function anonymous() {
    ipCounter += 1;
    return createApiCaller(harness().app, {
      ip: `10.67.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
    });
  }

  async function researcherAccount() {
    const account = await registerUser(harness().app, { role: "researcher" });
    await sql().query("update users set email_verified_at = now() where email = $1", [account.email]);
    return account;
  }

  async function transition(id: string, body: Record<string, unknown>) {
    const response = await staff().post(`/api/staff/reports/${id}/transitions`, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Detail>();
  }

  /** Submitted by `caller`, taken into review and validated. */
  async function validated(caller: ApiCaller, overrides: Record<string, unknown> = {}) {
    const submitted = await caller.post("/api/reports", sampleReport(overrides));
    expect(submitted.statusCode, submitted.body).toBe(201);
    const id = submitted.json<{ id: string }>().id;
    await transition(id, { action: "take_into_review" });
    await transition(id, {
      action: "validate",
      vulnerability_type: 2,
      owasp_category: 43,
      required_privilege: 3,
      affected_version_prefix: "<=",
      affected_version: "1.2.0",
      cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
    });
    return id;
  }

  async function mailTo(address: string) {
    const { rows } = await sql().query<{ template: string; text_body: string }>(
      "select template, text_body from mail_outbox where to_address = $1 order by id",
      [address],
    );
    return rows;
  }

  /** A vendor with an active program for `slug`. */
  async function vendorWithProgram(slug: string) {
    const vendor = await registerUser(harness().app, { role: "vendor" });
    await sql().query("update users set email_verified_at = now() where email = $1", [vendor.email]);
    const created = await vendor.caller.post("/api/products", {
      kind: "plugin",
      name: "Acme Slider",
      product_url: "https://acme.example/slider",
      slug,
      vendor_website_url: "https://acme.example",
    });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json<{ id: number }>().id;
    const activated = await vendor.caller.post(`/api/products/${productId}/activate-product`, {
      is_lobby_product: false,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const account = (await vendor.caller.get("/api/vendor/account")).json<{ contact_email: string | null }>();
    const owner = (
      await sql().query<{ public_key: string; vendor_name: string }>(
        `select v.public_key::text as public_key, v.vendor_name from vendors v
         join products p on p.vendor_id = v.id where p.id = $1`,
        [productId],
      )
    ).rows[0];
    return {
      ...vendor,
      productId,
      publicKey: owner?.public_key ?? "",
      vendorName: owner?.vendor_name ?? "",
      contactEmail: account.contact_email ?? vendor.email,
    };
  }

  /** A lobby product with a contact e-mail, notified: the PIN flow, with the PIN from the mailbox. */
  async function pinReport() {
    const researcher = await researcherAccount();
    const slug = `kit-pin-${Math.random().toString(36).slice(2, 8)}`;
    const contact = uniqueEmail("security");
    const id = await validated(researcher.caller, { product_slug: slug });
    await sql().query("update products set vendor_contact_email = $2 where slug = $1", [slug, contact]);
    await transition(id, { action: "notify_vendor" });
    const pin = /is: ([0-9]{6})/.exec(
      (await mailTo(contact)).find((mail) => mail.template === "report_pin")?.text_body ?? "",
    )?.[1];
    if (!pin) throw new Error("no PIN e-mail");
    return { id, contact, pin, researcher };
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
    transition,
    validated,
    mailTo,
    vendorWithProgram,
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
