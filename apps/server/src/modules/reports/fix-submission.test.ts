import { describe, expect, it } from "vitest";
import type { ApiCaller } from "../../test/api-client.ts";
import { type Detail, reportTestApp, TEST_PREVIEW_TOKEN_KEY } from "./report-test-kit.ts";

/** Issue 7, the vendor's side: a fix with a link and zip files, from the vendor and the PIN contact. */

type Attachment = { id: string; kind: string; filename: string; size: number };
type FixDetail = Detail & { fix_url: string | null; attachments: Attachment[] };

const kit = reportTestApp({ PREVIEW_TOKEN_KEY: TEST_PREVIEW_TOKEN_KEY });

const BOUNDARY = "----pressguard-fix-boundary";
/** The smallest zip with one entry's header: enough for the signature check. */
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from("fix archive bytes")]);

function multipart(filename: string, content: Buffer | string, type = "application/zip") {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const uploadFix = (caller: ApiCaller, url: string, body: Buffer) =>
  caller.post(url, body, { headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } });

describe("the fix link", () => {
  it("is stored with the vendor's fix and read by staff, the researcher and the vendor", async () => {
    const { id, vendor, researcher } = await kit.awaitingFixOnProgram();
    const link = "https://acme.example/slider/releases/1.2.1";
    const fixed = await vendor.caller.post(`/api/vendor/reports/${id}/fix`, {
      fixed_version: "1.2.1",
      fix_url: ` ${link} `,
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<FixDetail>()).toMatchObject({ status: "fix_pending", fix_url: link });
    for (const reader of [researcher.caller, vendor.caller])
      expect((await reader.get(`/api/reports/${id}`)).json<FixDetail>().fix_url).toBe(link);
    expect((await kit.staff.get(`/api/staff/reports/${id}`)).json<FixDetail>().fix_url).toBe(link);
    // Staff are asked to verify the fix, with its link.
    const { rows } = await kit.harness.database.sql.query<{ text_body: string }>(
      "select text_body from mail_outbox where template = 'report_fix_to_verify' and text_body like $1",
      [`%/staff/reports/${id}%`],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]?.text_body).toContain(`The vendor links the fix: ${link}`);
  });

  it("is optional, and refuses other schemes and over-long links with 422", async () => {
    const { id, vendor } = await kit.awaitingFixOnProgram();
    for (const [fixUrl, message] of [
      ["javascript:alert(document.cookie)", "http(s)"],
      ["ftp://acme.example/fix.zip", "http(s)"],
      [`https://acme.example/${"a".repeat(2000)}`, "at most 2,000 characters"],
    ] as const) {
      const refused = await vendor.caller.post(`/api/vendor/reports/${id}/fix`, {
        fixed_version: "1.2.1",
        fix_url: fixUrl,
      });
      expect(refused.statusCode, fixUrl).toBe(422);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors.fix_url?.[0]).toContain(message);
    }
    const blank = await vendor.caller.post(`/api/vendor/reports/${id}/fix`, {
      fixed_version: "1.2.1",
      fix_url: "",
    });
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json<FixDetail>().fix_url).toBeNull();
  });

  it("comes with the PIN contact's patch too", async () => {
    const { id, pin, researcher } = await kit.pinReport();
    const contact = await kit.pinContact(id, pin);
    const refused = await contact.post(`/api/report-previews/${id}/patch`, {
      fixed_version: "1.2.1",
      notes: "Escaped the caption.",
      fix_url: "javascript:alert(1)",
    });
    expect(refused.statusCode).toBe(422);
    const link = "https://git.example/kit/commit/abc123";
    const patched = await contact.post(`/api/report-previews/${id}/patch`, {
      fixed_version: "1.2.1",
      notes: "Escaped the caption.",
      fix_url: link,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<FixDetail>().fix_url).toBe(link);
    expect((await researcher.caller.get(`/api/reports/${id}`)).json<FixDetail>().fix_url).toBe(link);
  });
});

describe("fix zip files", () => {
  it("takes zips from the vendor while awaiting a fix, and serves them to staff and the researcher only", async () => {
    const { id, vendor, researcher } = await kit.awaitingFixOnProgram();
    const url = `/api/reports/${id}/fix-attachments`;
    const first = await uploadFix(vendor.caller, url, multipart("fix-1.2.1.zip", ZIP));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Attachment>()).toMatchObject({
      kind: "fix",
      filename: "fix-1.2.1.zip",
      size: ZIP.length,
    });
    const second = await uploadFix(vendor.caller, url, multipart("tests.ZIP", ZIP));
    expect(second.statusCode, second.body).toBe(201);

    // A renamed file is refused by its bytes, another extension by its name.
    const renamed = await uploadFix(vendor.caller, url, multipart("fix.zip", "<?php echo 'not a zip';"));
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json<{ errors: Record<string, string[]> }>().errors.file?.[0]).toContain("not a zip");
    const tarball = await uploadFix(vendor.caller, url, multipart("fix.tar.gz", ZIP));
    expect(tarball.statusCode).toBe(422);
    expect(tarball.json<{ errors: Record<string, string[]> }>().errors.file?.[0]).toContain(".zip");

    // Neither the researcher nor staff attach a fix; another vendor does not see the report.
    expect((await uploadFix(researcher.caller, url, multipart("x.zip", ZIP))).statusCode).toBe(403);
    expect((await uploadFix(kit.staff, url, multipart("x.zip", ZIP))).statusCode).toBe(403);
    const otherVendor = await kit.vendorWithProgram(`fix-other-${Math.random().toString(36).slice(2, 8)}`);
    expect((await uploadFix(otherVendor.caller, url, multipart("x.zip", ZIP))).statusCode).toBe(404);
    expect((await uploadFix(kit.anonymous(), url, multipart("x.zip", ZIP))).statusCode).toBe(401);

    const fixed = await vendor.caller.post(`/api/vendor/reports/${id}/fix`, { fixed_version: "1.2.1" });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const files = fixed.json<FixDetail>().attachments;
    expect(files.map((file) => [file.kind, file.filename])).toEqual([
      ["fix", "fix-1.2.1.zip"],
      ["fix", "tests.ZIP"],
    ]);

    const download = `/api/reports/${id}/attachments/${first.json<Attachment>().id}`;
    for (const reader of [kit.staff, researcher.caller, vendor.caller]) {
      const got = await reader.get(download);
      expect(got.statusCode).toBe(200);
      expect(got.headers["content-disposition"]).toContain("attachment;");
      expect(got.body).toBe(ZIP.toString("latin1"));
    }
    expect((await otherVendor.caller.get(download)).statusCode).toBe(404);

    // fix_pending: no more fix files.
    const late = await uploadFix(vendor.caller, url, multipart("late.zip", ZIP));
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toContain("awaits a fix");
  });

  it("refuses a fix file before the vendor is notified (409) and a sixth one (409)", async () => {
    const { id, vendor } = await kit.validatedOnProgram();
    const url = `/api/reports/${id}/fix-attachments`;
    expect((await uploadFix(vendor.caller, url, multipart("early.zip", ZIP))).statusCode).toBe(409);

    await kit.transition(id, { action: "notify_vendor" });
    for (let index = 1; index <= 5; index += 1) {
      const stored = await uploadFix(vendor.caller, url, multipart(`part-${index}.zip`, ZIP));
      expect(stored.statusCode, stored.body).toBe(201);
    }
    const sixth = await uploadFix(vendor.caller, url, multipart("part-6.zip", ZIP));
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json<{ message: string }>().message).toContain("at most 5 fix files");
  });

  it("takes a zip and the fix from the vendor's e-mailed link, for that report only", async () => {
    const { id, vendor } = await kit.awaitingFixOnProgram();
    const token = await kit.linkToken(vendor.contactEmail, "report_vendor_notified");
    const stored = await uploadFix(
      kit.anonymous(),
      `/api/reports/${id}/fix-attachments?token=${token}`,
      multipart("fix.zip", ZIP),
    );
    expect(stored.statusCode, stored.body).toBe(201);
    const linkHolder = kit.anonymous();
    expect(
      (await linkHolder.post(`/api/vendor/reports/${id}/fix`, { fixed_version: "1.2.1" })).statusCode,
    ).toBe(401);
    const fixed = await linkHolder.post(`/api/vendor/reports/${id}/fix?token=${token}`, {
      fixed_version: "1.2.1",
      fix_url: "https://acme.example/1.2.1",
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<FixDetail>()).toMatchObject({ status: "fix_pending", actions: [] });
    expect(fixed.json<FixDetail>().attachments).toEqual([expect.objectContaining({ kind: "fix" })]);
    const other = await kit.awaitingFixOnProgram();
    expect(
      (
        await uploadFix(
          kit.anonymous(),
          `/api/reports/${other.id}/fix-attachments?token=${token}`,
          multipart("fix.zip", ZIP),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await kit
          .anonymous()
          .post(`/api/vendor/reports/${other.id}/fix?token=${token}`, { fixed_version: "2" })
      ).statusCode,
    ).toBe(404);
    // Staff and the researcher read the report but do not submit the vendor's fix.
    expect(
      (await kit.staff.post(`/api/vendor/reports/${other.id}/fix`, { fixed_version: "2" })).statusCode,
    ).toBe(403);
    expect(
      (await other.researcher.caller.post(`/api/vendor/reports/${other.id}/fix`, { fixed_version: "2" }))
        .statusCode,
    ).toBe(403);
  });

  it("takes a zip from the PIN contact, downloaded by staff and the researcher", async () => {
    const { id, pin, researcher } = await kit.pinReport();
    const url = `/api/report-previews/${id}/fix-attachments`;
    expect((await uploadFix(kit.anonymous(), url, multipart("fix.zip", ZIP))).statusCode).toBe(401);
    const contact = await kit.pinContact(id, pin);
    expect((await uploadFix(contact, url, multipart("fix.zip", "PK not really"))).statusCode).toBe(422);
    const stored = await uploadFix(contact, url, multipart("fix.zip", ZIP));
    expect(stored.statusCode, stored.body).toBe(201);
    const attachmentId = stored.json<Attachment>().id;

    const preview = (await contact.get(`/api/report-previews/${id}`)).json<FixDetail>();
    expect(preview.attachments).toEqual([expect.objectContaining({ id: attachmentId, kind: "fix" })]);
    expect((await contact.get(`/api/report-previews/${id}/attachments/${attachmentId}`)).body).toBe(
      ZIP.toString("latin1"),
    );
    for (const reader of [kit.staff, researcher.caller])
      expect((await reader.get(`/api/reports/${id}/attachments/${attachmentId}`)).statusCode).toBe(200);
  });
});
