import { NO_VENDOR_CONTACT_MESSAGE, type ProductContact, type ReportDetail } from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import { createDeadlineJob } from "../../jobs/deadline-job.ts";
import { createMailer } from "../../mail/outbox.ts";
import { createPreviewTokens, PREVIEW_LINK_SECONDS } from "./preview-tokens.ts";
import {
  type Detail,
  reportTestApp,
  sampleReport,
  TEST_PREVIEW_TOKEN_KEY,
  tokenIn,
} from "./report-test-kit.ts";

/** Issue 7: signed preview links, the PIN preview of a product with no program, the deadline job. */

type PreviewDetail = Detail & {
  fix_diff?: string | null;
  reporter_email?: string | null;
  deadline_passed_at: string | null;
};

const KEY = TEST_PREVIEW_TOKEN_KEY;
const DAY = 24 * 3600 * 1000;

const kit = reportTestApp({ PREVIEW_TOKEN_KEY: KEY });

describe("preview tokens", () => {
  it("signs a token for one report and audience, refuses tampering and expires it", () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const tokens = createPreviewTokens(KEY, () => now);
    const token = tokens.sign("report-a", "vendor", PREVIEW_LINK_SECONDS);
    expect(tokens.verify(token)).toMatchObject({ reportId: "report-a", audience: "vendor" });
    expect(createPreviewTokens("another key of at least 32 characters!!").verify(token)).toBeNull();
    const [payload, signature] = token.split(".");
    const swapped = Buffer.from(JSON.stringify({ r: "report-b", a: "vendor", e: 9e9 })).toString("base64url");
    expect(tokens.verify(`${swapped}.${signature}`)).toBeNull();
    expect(tokens.verify(`${payload}.${signature}x`)).toBeNull();
    for (const junk of ["", "a.b.c", "....", null, undefined]) expect(tokens.verify(junk)).toBeNull();
    now = new Date(now.getTime() + PREVIEW_LINK_SECONDS * 1000 - 1000);
    expect(tokens.verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 1000);
    expect(tokens.verify(token)).toBeNull();
  });

  it("lets the holder of a researcher link read that report only, and never after 7 days", async () => {
    const researcher = await kit.researcherAccount();
    const submitted = await researcher.caller.post("/api/reports", sampleReport());
    const id = submitted.json<{ id: string }>().id;
    const other = (await researcher.caller.post("/api/reports", sampleReport())).json<{ id: string }>().id;
    const received = (await kit.mailTo(researcher.email)).find((mail) => mail.text_body.includes(id));
    expect(received?.text_body).toContain(`/researchers/reports/${id}/preview?token=`);
    const token = tokenIn(received?.text_body);

    const read = await kit.anonymous().get(`/api/reports/${id}?token=${token}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<PreviewDetail>()).toMatchObject({ id, status: "submitted", actions: [] });
    expect(read.json<PreviewDetail>()).not.toHaveProperty("reporter_email");
    expect(read.json<PreviewDetail>()).not.toHaveProperty("fix_diff");

    expect((await kit.anonymous().get(`/api/reports/${other}?token=${token}`)).statusCode).toBe(404);
    expect((await kit.anonymous().get(`/api/reports/${id}`)).statusCode).toBe(401);
    expect((await kit.anonymous().get(`/api/reports/${id}?token=${token.slice(0, -2)}`)).statusCode).toBe(
      404,
    );
    expect((await kit.anonymous().get(`/api/reports/${id}?token=nonsense`)).statusCode).toBe(404);
    const expired = createPreviewTokens(KEY, () => new Date(Date.now() - 8 * DAY)).sign(
      id,
      "researcher",
      PREVIEW_LINK_SECONDS,
    );
    expect((await kit.anonymous().get(`/api/reports/${id}?token=${expired}`)).statusCode).toBe(404);
    const forged = createPreviewTokens("not the server's key, but 32+ characters").sign(id, "researcher", 60);
    expect((await kit.anonymous().get(`/api/reports/${id}?token=${forged}`)).statusCode).toBe(404);
    // Another signed-in researcher with the link reads it as the link's audience.
    const stranger = await kit.researcherAccount();
    expect((await stranger.caller.get(`/api/reports/${id}`)).statusCode).toBe(404);
    expect((await stranger.caller.get(`/api/reports/${id}?token=${token}`)).statusCode).toBe(200);
  });

  it("puts a vendor link into the vendor notice, which reads the report as the vendor", async () => {
    const { id, vendor, researcher } = await kit.awaitingFixOnProgram({ fixDeadlineDays: 14 });
    const notice = (await kit.mailOf(vendor.contactEmail, "report_vendor_notified"))[0];
    expect(notice?.text_body).toContain(`/vdp/vulnerabilities/${id}/preview?token=`);
    const token = tokenIn(notice?.text_body);
    const read = await kit.anonymous().get(`/api/reports/${id}?token=${token}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<PreviewDetail>()).toMatchObject({ status: "awaiting_fix", actions: [] });
    expect(read.json<PreviewDetail>()).toHaveProperty("fix_diff");
    // A vendor link does not open the PIN preview.
    const caller = kit.anonymous();
    caller.cookies.set("pressguard_report_preview", token);
    expect((await caller.get(`/api/report-previews/${id}`)).statusCode).toBe(401);
    // The researcher's mails carry researcher links.
    const validated = (await kit.mailOf(researcher.email, "report_validated"))[0];
    expect(validated?.text_body).toContain(`/researchers/reports/${id}/preview?token=`);
  });
});

describe("the PIN preview of a product with no program (PRODUCT.md §2)", () => {
  it("sends the link and, separately, a PIN whose hash only is stored", async () => {
    const { id, pin, mails } = await kit.pinReport();
    expect(mails.map((mail) => mail.template)).toEqual(["report_pin_notice", "report_pin"]);
    expect(mails[0]?.text_body).toContain(`/database/report-preview/${id}/pin`);
    expect(mails[0]?.text_body).not.toContain(pin);
    // The PIN's mail carries no link to the report (issue 19: the two arrived in one e-mail).
    expect(mails[1]?.text_body).toContain(pin);
    expect(mails[1]?.text_body).not.toContain(id);
    expect(mails[1]?.text_body).not.toMatch(/https?:\/\//);
    const { rows } = await kit.harness.database.sql.query<{ pin_hash: string }>(
      "select pin_hash from report_pins where report_id = $1",
      [id],
    );
    expect(rows[0]?.pin_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]?.pin_hash).not.toContain(pin);
  });

  it("opens the report with the right PIN and takes a patch that moves it to fix_pending", async () => {
    const { id, pin, researcher } = await kit.pinReport();
    const contact = kit.anonymous();
    const without = await contact.get(`/api/report-previews/${id}`);
    expect(without.statusCode).toBe(401);
    expect(without.json()).toMatchObject({ message: "Enter the PIN from the e-mail to open this report." });
    const malformed = await contact.post(`/api/report-previews/${id}/pin`, { pin: "12ab56" });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json<{ errors: Record<string, string[]> }>().errors.pin).toEqual([
      "Enter the 6-digit PIN from the e-mail.",
    ]);
    const wrongPin = pin === "000000" ? "000001" : "000000";
    const wrong = await contact.post(`/api/report-previews/${id}/pin`, { pin: wrongPin });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<{ errors: Record<string, string[]> }>().errors.pin?.[0]).toMatch(/4 tries left/);

    const right = await contact.post(`/api/report-previews/${id}/pin`, { pin });
    expect(right.statusCode, right.body).toBe(200);
    const cookie = right.cookies.find((item) => item.name === "pressguard_report_preview");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: `/api/report-previews/${id}` });
    expect(cookie?.maxAge).toBe(3600);

    const preview = await contact.get(`/api/report-previews/${id}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<PreviewDetail>()).toMatchObject({
      id,
      status: "awaiting_fix",
      actions: ["submit_fix"],
    });
    expect(preview.json<PreviewDetail>()).not.toHaveProperty("reporter_email");
    // The credential is this report's only.
    const other = await kit.pinReport();
    expect((await contact.get(`/api/report-previews/${other.id}`)).statusCode).toBe(401);
    expect(
      (await contact.post(`/api/report-previews/${other.id}/patch`, { fixed_version: "1.2.1", notes: "x" }))
        .statusCode,
    ).toBe(401);

    const bad = await contact.post(`/api/report-previews/${id}/patch`, { fixed_version: "", notes: "" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      "fixed_version",
      "notes",
    ]);
    const patched = await contact.post(`/api/report-previews/${id}/patch`, {
      fixed_version: "1.2.1",
      notes: "Escaped the caption with esc_html().",
      diff: "--- a/gallery.php\n+++ b/gallery.php\n-echo $caption;\n+echo esc_html( $caption );\n",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<PreviewDetail>()).toMatchObject({
      status: "fix_pending",
      fixed_version: "1.2.1",
      actions: [],
    });
    expect(patched.json<PreviewDetail>().fix_diff).toContain("esc_html");
    expect(patched.json<PreviewDetail>().timeline.at(-1)).toMatchObject({
      action: "submit_fix",
      from_state: "awaiting_fix",
      to_state: "fix_pending",
      note: "Escaped the caption with esc_html().",
    });
    const again = await contact.post(`/api/report-previews/${id}/patch`, {
      fixed_version: "1.2.2",
      notes: "More.",
    });
    expect(again.statusCode).toBe(409);
    const staffView = (await kit.staff.get(`/api/staff/reports/${id}`)).json<
      Detail & {
        timeline: { actor?: unknown }[];
      }
    >();
    expect(staffView.timeline.at(-1)).toMatchObject({ action: "submit_fix", actor: null });
    // The researcher does not see the diff.
    expect((await researcher.caller.get(`/api/reports/${id}`)).json<PreviewDetail>()).not.toHaveProperty(
      "fix_diff",
    );
  });

  it("locks the PIN for 15 minutes after 5 wrong tries, even for the right one", async () => {
    const { id, pin } = await kit.pinReport();
    const wrongPin = pin === "999999" ? "999998" : "999999";
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const wrong = await kit.anonymous().post(`/api/report-previews/${id}/pin`, { pin: wrongPin });
      expect(wrong.statusCode).toBe(422);
    }
    const fifth = await kit.anonymous().post(`/api/report-previews/${id}/pin`, { pin: wrongPin });
    expect(fifth.statusCode).toBe(429);
    expect(Number(fifth.headers["retry-after"])).toBeGreaterThan(890);
    expect(fifth.json<{ message: string }>().message).toMatch(
      /^Too many wrong PINs: the report is locked until \d\d:\d\d UTC\. Try again in 15 minutes\.$/,
    );
    const locked = await kit.anonymous().post(`/api/report-previews/${id}/pin`, { pin });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeLessThanOrEqual(900);
    await kit.harness.database.sql.query(
      "update report_pins set locked_until = now() - interval '1 second' where report_id = $1",
      [id],
    );
    expect((await kit.anonymous().post(`/api/report-previews/${id}/pin`, { pin })).statusCode).toBe(200);
  });

  it("answers 404 for a report without a PIN and limits PIN tries per IP", async () => {
    const caller = kit.anonymous();
    const unknown = "00000000-0000-4000-8000-000000000001";
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await caller.post(`/api/report-previews/${unknown}/pin`, { pin: "123456" })).statusCode).toBe(
        404,
      );
    }
    const limited = await caller.post(`/api/report-previews/${unknown}/pin`, { pin: "123456" });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect(
      (await kit.anonymous().post("/api/report-previews/not-a-uuid/pin", { pin: "123456" })).statusCode,
    ).toBe(404);
  });

  it("refuses to notify nobody: without a program or a contact the report waits, no deadline starts (issue 19)", async () => {
    const researcher = await kit.researcherAccount();
    const id = await kit.validated(researcher.caller);
    const refused = await kit.staff.post(`/api/staff/reports/${id}/transitions`, { action: "notify_vendor" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(NO_VENDOR_CONTACT_MESSAGE);
    const waiting = (await kit.staff.get(`/api/staff/reports/${id}`)).json<Detail & ReportDetail>();
    expect(waiting).toMatchObject({ status: "validated", vendor_notified_at: null, fix_deadline_at: null });
    const pins = () =>
      kit.harness.database.sql.query<{ contact_email: string }>(
        "select contact_email from report_pins where report_id = $1",
        [id],
      );
    expect((await pins()).rows).toEqual([]);
    // Staff find it among the reports waiting for a vendor contact.
    const waitingIds = async () =>
      (await kit.staff.get("/api/staff/reports?no_vendor_contact=true&per_page=100"))
        .json<{ data: { id: string }[] }>()
        .data.map((item) => item.id);
    expect(await waitingIds()).toContain(id);

    // Staff see the routes to the vendor the data knows, set the address, and the change is kept.
    const contactPath = `/api/staff/products/${waiting.product.id}/contact`;
    const before = (await kit.staff.get(contactPath)).json<ProductContact>();
    expect(before).toMatchObject({ email: null, reachable: false, history: [] });
    const bad = await kit.staff.put(contactPath, { email: "not an address" });
    expect(bad.statusCode).toBe(422);
    const set = await kit.staff.put(contactPath, { email: " security@acme.example.test " });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<ProductContact>()).toMatchObject({
      email: "security@acme.example.test",
      reachable: true,
      history: [{ email: "security@acme.example.test", previous_email: null }],
    });
    expect(set.json<ProductContact>().history[0]?.changed_by).toBeTruthy();
    // Only staff read or change it.
    expect((await researcher.caller.get(contactPath)).statusCode).toBe(403);
    expect((await researcher.caller.put(contactPath, { email: "x@example.test" })).statusCode).toBe(403);
    expect((await kit.staff.get("/api/staff/products/999999999/contact")).statusCode).toBe(404);
    // With an address it no longer waits for one.
    expect(await waitingIds()).not.toContain(id);

    // Now the vendor can be told: the PIN goes to that address, the deadline starts.
    const notified = await kit.transition<ReportDetail>(id, { action: "notify_vendor" });
    expect(notified.status).toBe("awaiting_fix");
    expect(notified.fix_deadline_at).not.toBeNull();
    expect((await pins()).rows).toEqual([{ contact_email: "security@acme.example.test" }]);
  });
});

/** A deadline job of its own on the test database: what one instance's timer runs. */
function instanceDeadlineJob() {
  return createDeadlineJob({
    database: kit.harness.database,
    mailer: createMailer({
      database: kit.harness.database,
      smtpUrl: undefined,
      from: "t@example.test",
      siteName: "Pressguard",
    }),
    previewTokens: createPreviewTokens(KEY),
    appUrl: "http://localhost:3000",
  });
}

describe("the deadline job", () => {
  it("e-mails once 7 days before the deadline, then flags the report once when it passes", async () => {
    const { id, vendor } = await kit.awaitingFixOnProgram({ fixDeadlineDays: 14 });
    const pin = await kit.pinReport();
    await kit.harness.database.sql.query(
      "update reports set fix_deadline_at = now() + interval '14 days' where id = $1",
      [pin.id],
    );
    // The job function the app's timer runs, driven here with a fake clock.
    const service = instanceDeadlineJob();
    const start = Date.now();
    const job = (days: number) => service.runOnce(new Date(start + days * DAY));

    expect(await job(1)).toMatchObject({ passed: 0 });
    expect(await kit.templatesTo(vendor.contactEmail)).not.toContain("report_deadline_near");
    await job(8);
    await job(9);
    expect(
      (await kit.templatesTo(vendor.contactEmail)).filter((name) => name === "report_deadline_near"),
    ).toHaveLength(1);
    const near = (await kit.mailOf(vendor.contactEmail, "report_deadline_near"))[0];
    expect(near?.text_body).toContain(`/vdp/vulnerabilities/${id}/preview?token=`);
    expect(await kit.templatesTo(pin.contact)).toContain("report_deadline_near");
    expect(
      (await kit.staff.get(`/api/staff/reports/${id}`)).json<PreviewDetail>().deadline_passed_at,
    ).toBeNull();

    await job(15);
    await job(16);
    const flagged = (await kit.staff.get(`/api/staff/reports/${id}`)).json<PreviewDetail>();
    expect(flagged.deadline_passed_at).not.toBeNull();
    expect(flagged.timeline.filter((event) => event.action === "deadline_passed")).toEqual([
      {
        action: "deadline_passed",
        from_state: "awaiting_fix",
        to_state: "awaiting_fix",
        note: null,
        actor: null,
        created_at: expect.any(String),
      },
    ]);
    expect(
      (await kit.templatesTo(vendor.contactEmail)).filter((name) => name === "report_deadline_passed"),
    ).toHaveLength(1);
    const passedPin = (await kit.mailOf(pin.contact, "report_deadline_passed"))[0];
    expect(passedPin?.text_body).toContain(`/database/report-preview/${pin.id}/pin`);
    const queue = await kit.staff.get("/api/staff/reports?deadline_passed=true&per_page=100");
    expect(queue.statusCode).toBe(200);
    const listed = queue.json<{ data: { id: string; deadline_passed_at: string | null }[] }>().data;
    expect(listed.map((row) => row.id)).toEqual(expect.arrayContaining([id, pin.id]));
    expect(listed.every((row) => row.deadline_passed_at !== null)).toBe(true);
    // Staff may now publish it unpatched (the deadline has really passed in the database's clock too).
    await kit.harness.database.sql.query(
      "update reports set fix_deadline_at = now() - interval '1 day' where id = $1",
      [id],
    );
    expect((await kit.transition(id, { action: "publish_unpatched" })).status).toBe("published");
  });

  it("reminds the vendor 30 days before a long deadline, once, and never right after telling them (issue 19)", async () => {
    const long = await kit.awaitingFixOnProgram({ fixDeadlineDays: 90 });
    const pin = await kit.pinReport();
    await kit.harness.database.sql.query(
      "update reports set fix_deadline_at = now() + interval '90 days' where id = $1",
      [pin.id],
    );
    const short = await kit.awaitingFixOnProgram({ fixDeadlineDays: 20 });
    const service = instanceDeadlineJob();
    const start = Date.now();
    const job = (days: number) => service.runOnce(new Date(start + days * DAY));
    const reminders = async (email: string) =>
      (await kit.templatesTo(email)).filter((name) => name === "report_deadline_reminder").length;

    // Just notified: 20 days left is within 30, but the vendor was told a moment ago.
    await job(1);
    expect(await reminders(short.vendor.contactEmail)).toBe(0);
    await job(8);
    expect(await reminders(short.vendor.contactEmail)).toBe(1);
    // 31 days left: not yet; 29 days left: once, to the program's vendor and to the PIN contact.
    await job(59);
    expect(await reminders(long.vendor.contactEmail)).toBe(0);
    await job(61);
    await job(62);
    expect(await reminders(long.vendor.contactEmail)).toBe(1);
    expect(await reminders(pin.contact)).toBe(1);
    const reminder = (await kit.mailOf(long.vendor.contactEmail, "report_deadline_reminder"))[0];
    expect(reminder?.text_body).toContain(`/vdp/vulnerabilities/${long.id}/preview?token=`);
    // Then the "deadline near" mail, 7 days before, as before.
    await job(84);
    expect(await kit.templatesTo(long.vendor.contactEmail)).toContain("report_deadline_near");
    expect(await reminders(long.vendor.contactEmail)).toBe(1);
  });

  it("flags and e-mails each report once when two instances run it at the same moment", async () => {
    const { id, vendor } = await kit.awaitingFixOnProgram({ fixDeadlineDays: 14 });
    const [one, two] = [instanceDeadlineJob(), instanceDeadlineJob()];
    const start = Date.now();
    const both = (days: number) =>
      Promise.all([one, two].map((service) => service.runOnce(new Date(start + days * DAY))));

    const near = await both(8);
    expect(near.reduce((sum, result) => sum + result.near, 0)).toBeGreaterThanOrEqual(1);
    const passed = await both(15);
    expect(passed.reduce((sum, result) => sum + result.passed, 0)).toBeGreaterThanOrEqual(1);
    for (const template of ["report_deadline_near", "report_deadline_passed"])
      expect((await kit.templatesTo(vendor.contactEmail)).filter((name) => name === template)).toHaveLength(
        1,
      );
    const timeline = (await kit.staff.get(`/api/staff/reports/${id}`)).json<PreviewDetail>().timeline;
    expect(timeline.filter((event) => event.action === "deadline_passed")).toHaveLength(1);
  });
});
