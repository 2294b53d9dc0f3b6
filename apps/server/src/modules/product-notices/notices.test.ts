import { NOTICES_PER_DAY } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser } from "../../test/api-client.ts";
import { createProgramTestApp, type Harness, programHelpers } from "../programs/program-test-kit.ts";
import { NOTICE_MESSAGES } from "./service.ts";

/** A vendor's notices to its product's users (issue 20, CRA Art. 14(8)). */

let harness: Harness;
const { vendor, create } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

type Invalid = { errors: Record<string, string[]> };

const MESSAGE =
  "Acme Forms 2.0 to 2.3 lets anyone upload files.\n\nUpdate to 2.4 now, or deactivate the plugin until you can.";

async function program() {
  const owner = await vendor();
  const created = await create(owner.caller, { name: "Acme Forms" });
  await harness.database.sql.query(
    "update vendors set vendor_name = 'Acme Inc' where id = (select vendor_id from products where id = $1)",
    [created.id],
  );
  return { ...owner, ...created };
}

/** A site owner watching `slugs` (in any case) in one or more watchlists. */
async function watcher(...watchlists: string[][]) {
  const user = await registerUser(harness.app, { role: "site_owner" });
  for (const [index, slugs] of watchlists.entries()) {
    const response = await user.caller.post("/api/watchlists", {
      name: `Site ${index + 1}`,
      entries: slugs.map((slug) => ({ kind: "plugin", slug, version: "2.1.0" })),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  return user;
}

const noticesTo = async (email: string) =>
  (
    await harness.database.sql.query<{ subject: string; text_body: string }>(
      "select subject, text_body from mail_outbox where to_address = $1 and template = 'product_user_notice'",
      [email],
    )
  ).rows;

describe("POST /api/products/:id/user-notices", () => {
  it("e-mails every watcher of the product once, and records the notice with its recipients", async () => {
    const acme = await program();
    const twice = await watcher([acme.slug], [acme.slug.toUpperCase(), "akismet"]);
    const once = await watcher([acme.slug]);
    const elsewhere = await watcher(["akismet"]);

    const response = await acme.caller.post(`/api/products/${acme.id}/user-notices`, { message: MESSAGE });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ message: MESSAGE, recipients: 2, report_id: null });

    const [mail, ...more] = await noticesTo(twice.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe("Security notice from Acme Inc about Acme Forms");
    expect(mail?.text_body).toContain("Acme Inc, the vendor of Acme Forms, sends this security notice");
    expect(mail?.text_body).toContain("Update to 2.4 now, or deactivate the plugin until you can.");
    expect(mail?.text_body).toContain(`/database/wordpress/plugin/${acme.slug}/vulnerabilities/vdp`);
    expect(await noticesTo(once.email)).toHaveLength(1);
    expect(await noticesTo(elsewhere.email)).toEqual([]);

    const listed = await acme.caller.get(`/api/products/${acme.id}/user-notices`);
    expect(listed.json()).toMatchObject({
      watchers: 2,
      remaining_today: NOTICES_PER_DAY - 1,
      data: [{ message: MESSAGE, recipients: 2, sent_by: "Test User" }],
    });
  });

  it(`allows ${NOTICES_PER_DAY} notices a program a day, then answers 429 saying to try tomorrow`, async () => {
    const acme = await program();
    for (let sent = 0; sent < NOTICES_PER_DAY; sent += 1) {
      const response = await acme.caller.post(`/api/products/${acme.id}/user-notices`, { message: MESSAGE });
      expect(response.statusCode, response.body).toBe(201);
    }
    const refused = await acme.caller.post(`/api/products/${acme.id}/user-notices`, { message: MESSAGE });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(NOTICE_MESSAGES.rateLimited);
    expect((await acme.caller.get(`/api/products/${acme.id}/user-notices`)).json().remaining_today).toBe(0);
  });

  it("refuses a short message and a report of another program", async () => {
    const acme = await program();
    const response = await acme.caller.post(`/api/products/${acme.id}/user-notices`, {
      message: "Update now.",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<Invalid>().errors.message).toEqual([
      "Write at least 20 characters: what is affected and what to do.",
    ]);
    const unknownReport = await acme.caller.post(`/api/products/${acme.id}/user-notices`, {
      message: MESSAGE,
      report_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknownReport.statusCode).toBe(422);
    expect(unknownReport.json<Invalid>().errors.report_id).toEqual([NOTICE_MESSAGES.reportNotOfProgram]);
  });

  it("is not found for another vendor, and refused to a signed-in non-vendor", async () => {
    const acme = await program();
    const other = await vendor();
    const sent = await other.caller.post(`/api/products/${acme.id}/user-notices`, { message: MESSAGE });
    expect(sent.statusCode).toBe(404);
    expect((await other.caller.get(`/api/products/${acme.id}/user-notices`)).statusCode).toBe(404);
    const siteOwner = await watcher();
    const refused = await siteOwner.caller.post(`/api/products/${acme.id}/user-notices`, {
      message: MESSAGE,
    });
    expect(refused.statusCode).toBe(403);
    expect(
      await harness.database.sql.query("select 1 from product_user_notices where product_id = $1", [acme.id]),
    ).toMatchObject({ rows: [] });
  });
});
