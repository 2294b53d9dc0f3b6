import { beforeAll, describe, expect, it } from "vitest";
import { reportTestApp, TEST_PREVIEW_TOKEN_KEY, tokenIn } from "./report-test-kit.ts";

/** Issue 7: the e-mails of in review, fix submitted, fix insufficient and fixed, each with its link. */

let staffEmail: string;
const kit = reportTestApp({ PREVIEW_TOKEN_KEY: TEST_PREVIEW_TOKEN_KEY });

beforeAll(async () => {
  staffEmail = (await kit.staff.get("/api/user")).json<{ email: string }>().email;
});

describe("e-mail at each step of a report on a product with a program", () => {
  it("tells the researcher of review, fix and verification, the vendor of an insufficient and a verified fix, and staff of a fix to verify", async () => {
    const { id, vendor, researcher } = await kit.validatedOnProgram();

    const inReview = await kit.mailOf(researcher.email, "report_in_review");
    expect(inReview).toHaveLength(1);
    expect(inReview[0]?.text_body).toContain(`/researchers/reports/${id}/preview?token=`);
    const token = tokenIn(inReview[0]?.text_body);
    expect((await kit.anonymous().get(`/api/reports/${id}?token=${token}`)).statusCode).toBe(200);

    await kit.transition(id, { action: "notify_vendor" });
    const fixed = await vendor.caller.post(`/api/vendor/reports/${id}/fix`, {
      fixed_version: "1.2.1",
      notes: "Escaped the caption.",
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const fixSubmitted = await kit.mailOf(researcher.email, "report_fix_submitted");
    expect(fixSubmitted).toHaveLength(1);
    expect(fixSubmitted[0]?.text_body).toContain("Fixed version: 1.2.1");
    expect(fixSubmitted[0]?.text_body).toContain(`/researchers/reports/${id}/preview?token=`);
    const toVerify = await kit.mailOf(staffEmail, "report_fix_to_verify");
    expect(toVerify.at(-1)?.text_body).toContain(`/staff/reports/${id}`);

    await kit.transition(id, { action: "mark_fix_insufficient", note: "The title is still unescaped." });
    const insufficient = await kit.mailOf(vendor.contactEmail, "report_fix_insufficient");
    expect(insufficient).toHaveLength(1);
    expect(insufficient[0]?.text_body).toContain("The title is still unescaped.");
    expect(insufficient[0]?.text_body).toContain(`/vdp/vulnerabilities/${id}/preview?token=`);
    const vendorToken = tokenIn(insufficient[0]?.text_body);
    expect((await kit.anonymous().get(`/api/reports/${id}?token=${vendorToken}`)).statusCode).toBe(200);

    await vendor.caller.post(`/api/vendor/reports/${id}/fix`, { fixed_version: "1.2.2" });
    await kit.transition(id, { action: "verify_fix" });
    const researcherFixed = await kit.mailOf(researcher.email, "report_fixed");
    expect(researcherFixed).toHaveLength(1);
    expect(researcherFixed[0]?.text_body).toContain("Fixed version: 1.2.2");
    expect(researcherFixed[0]?.text_body).toContain(`/researchers/reports/${id}/preview?token=`);
    const vendorFixed = await kit.mailOf(vendor.contactEmail, "report_vendor_fixed");
    expect(vendorFixed).toHaveLength(1);
    expect(vendorFixed[0]?.text_body).toContain(`/vdp/vulnerabilities/${id}/preview?token=`);

    expect((await kit.templatesTo(researcher.email)).filter((name) => name.startsWith("report_"))).toEqual([
      "report_received",
      "report_in_review",
      "report_validated",
      "report_fix_submitted",
      "report_fix_submitted",
      "report_fixed",
    ]);
  });
});

describe("e-mail at each step of a report through the PIN preview", () => {
  it("tells the researcher and staff of the PIN contact's patch, and the PIN contact of an insufficient and a verified fix with the PIN page link", async () => {
    const { id, contact, pin, researcher } = await kit.pinReport();
    const caller = await kit.pinContact(id, pin);
    const patched = await caller.post(`/api/report-previews/${id}/patch`, {
      fixed_version: "1.2.1",
      notes: "Escaped the caption.",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await kit.mailOf(researcher.email, "report_fix_submitted")).toHaveLength(1);
    expect((await kit.mailOf(staffEmail, "report_fix_to_verify")).at(-1)?.text_body).toContain(
      `/staff/reports/${id}`,
    );

    await kit.transition(id, { action: "mark_fix_insufficient", note: "Not yet." });
    const insufficient = await kit.mailOf(contact, "report_fix_insufficient");
    expect(insufficient).toHaveLength(1);
    expect(insufficient[0]?.text_body).toContain(`/database/report-preview/${id}/pin`);
    expect(insufficient[0]?.text_body).toContain("Not yet.");

    await caller.post(`/api/report-previews/${id}/patch`, { fixed_version: "1.2.2", notes: "Now too." });
    await kit.transition(id, { action: "verify_fix" });
    const verified = await kit.mailOf(contact, "report_vendor_fixed");
    expect(verified).toHaveLength(1);
    expect(verified[0]?.text_body).toContain(`/database/report-preview/${id}/pin`);
    expect(await kit.mailOf(researcher.email, "report_fixed")).toHaveLength(1);
  });
});
