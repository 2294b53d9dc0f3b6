import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiCaller, createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import { cleanFilename, contentDispositionOf } from "./attachments.ts";

/** Issue 7: proof-of-concept attachments — stored outside the web root, served only as downloads. */

type Harness = Awaited<ReturnType<typeof createTestApp>>;
type Attachment = { id: string; filename: string; content_type: string; size: number };

let harness: Harness;
let staff: ApiCaller;
let ipCounter = 0;

const BOUNDARY = "----pressguard-test-boundary";

function multipart(filename: string, content: Buffer | string, type = "text/plain", field = "file") {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function upload(caller: ApiCaller, id: string, body: Buffer) {
  return caller.post(`/api/reports/${id}/attachments`, body, {
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

async function researcherWithReport(overrides: Record<string, unknown> = {}) {
  const researcher = await registerUser(harness.app, { role: "researcher" });
  await harness.database.sql.query("update users set email_verified_at = now() where email = $1", [
    researcher.email,
  ]);
  const response = await researcher.caller.post("/api/reports", {
    kind: "plugin",
    product_slug: `attach-plugin-${Math.random().toString(36).slice(2, 8)}`,
    product_name: "Attach Plugin",
    affected_version_prefix: "<=",
    affected_version: "3.0.0",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    title: "Stored XSS with a proof-of-concept file",
    description: "The uploaded file name is echoed back in the media library without escaping.",
    steps_to_reproduce: "Upload the attached file and open the media library as an administrator.",
    proof_of_concept: "See the attached file: it runs a script in the media library.",
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...researcher, reportId: response.json<{ id: string }>().id };
}

function anonymous() {
  ipCounter += 1;
  return createApiCaller(harness.app, { ip: `10.55.${Math.floor(ipCounter / 250)}.${ipCounter % 250}` });
}

beforeAll(async () => {
  harness = await createTestApp();
  staff = await createStaffCaller(harness.app, harness.database);
});
afterAll(() => harness.close());

describe("report attachments", () => {
  it("cleans names and writes a download disposition", () => {
    expect(cleanFilename("../../etc/passwd")).toBe("passwd");
    expect(cleanFilename("C:\\Users\\x\\poc.html")).toBe("poc.html");
    expect(cleanFilename('a"b\u0000c.txt')).toBe("abc.txt");
    expect(cleanFilename("..")).toBe("attachment");
    expect(cleanFilename(undefined)).toBe("attachment");
    expect(contentDispositionOf("poc é.html")).toBe(
      `attachment; filename="poc _.html"; filename*=UTF-8''poc%20%C3%A9.html`,
    );
  });

  it("stores a researcher's file and serves it only as a download to those who may read the report", async () => {
    const owner = await researcherWithReport();
    const html = "<html><script>alert(document.cookie)</script></html>";
    const stored = await upload(owner.caller, owner.reportId, multipart("../poc.html", html, "text/html"));
    expect(stored.statusCode, stored.body).toBe(201);
    const attachment = stored.json<Attachment>();
    expect(attachment).toMatchObject({ filename: "poc.html", content_type: "text/html", size: html.length });

    const detail = await owner.caller.get(`/api/reports/${owner.reportId}`);
    expect(detail.json<{ attachments: Attachment[] }>().attachments).toEqual([
      expect.objectContaining({ id: attachment.id, filename: "poc.html" }),
    ]);

    const url = `/api/reports/${owner.reportId}/attachments/${attachment.id}`;
    const download = await owner.caller.get(url);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(html);
    expect(download.headers).toMatchObject({
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="poc.html"; filename*=UTF-8''poc.html`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    });
    expect((await staff.get(url)).statusCode).toBe(200);

    const other = await researcherWithReport();
    expect((await other.caller.get(url)).statusCode).toBe(404);
    expect((await upload(other.caller, owner.reportId, multipart("x.txt", "x"))).statusCode).toBe(404);
    expect((await anonymous().get(url)).statusCode).toBe(401);
    expect((await anonymous().get(`${url}?token=forged`)).statusCode).toBe(404);
    // An attachment of one report is not reachable through another.
    expect(
      (await other.caller.get(`/api/reports/${other.reportId}/attachments/${attachment.id}`)).statusCode,
    ).toBe(404);
    // The researcher's preview link opens the download too.
    const { rows } = await harness.database.sql.query<{ text_body: string }>(
      "select text_body from mail_outbox where to_address = $1 and template = 'report_received'",
      [owner.email],
    );
    const token = /\?token=([A-Za-z0-9_.-]+)/.exec(rows[0]?.text_body ?? "")?.[1];
    expect((await anonymous().get(`${url}?token=${token}`)).statusCode).toBe(200);
    // Stored under the attachments directory by ids, with its hash.
    const row = await harness.database.sql.query<{ sha256: string }>(
      "select sha256 from report_attachments where id = $1",
      [attachment.id],
    );
    expect(row.rows[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a file over 20 MB, a sixth file, an empty one and a wrong field", async () => {
    const owner = await researcherWithReport();
    const tooBig = await upload(
      owner.caller,
      owner.reportId,
      multipart("big.zip", Buffer.alloc(20 * 1024 * 1024 + 1, 1), "application/zip"),
    );
    expect(tooBig.statusCode, tooBig.body).toBe(413);
    expect(tooBig.json()).toMatchObject({ message: "An attachment must be at most 20 MB." });
    const exact = await upload(
      owner.caller,
      owner.reportId,
      multipart("exact.zip", Buffer.alloc(20 * 1024 * 1024, 2), "application/zip"),
    );
    expect(exact.statusCode, exact.body).toBe(201);
    expect((await upload(owner.caller, owner.reportId, multipart("empty.txt", ""))).statusCode).toBe(422);
    expect(
      (await upload(owner.caller, owner.reportId, multipart("x.txt", "x", "text/plain", "other"))).statusCode,
    ).toBe(422);
    expect(
      (await owner.caller.post(`/api/reports/${owner.reportId}/attachments`, { file: "x" })).statusCode,
    ).toBe(415);
    for (let index = 2; index <= 5; index += 1) {
      expect(
        (await upload(owner.caller, owner.reportId, multipart(`poc-${index}.txt`, "poc"))).statusCode,
      ).toBe(201);
    }
    const sixth = await upload(owner.caller, owner.reportId, multipart("poc-6.txt", "poc"));
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toMatchObject({ message: "A report has at most 5 attachments." });
    const { rows } = await harness.database.sql.query<{ count: number }>(
      "select count(*)::int as count from report_attachments where report_id = $1",
      [owner.reportId],
    );
    expect(rows[0]?.count).toBe(5);
  });

  it("refuses a kind of file outside the accepted list, by its extension", async () => {
    const owner = await researcherWithReport();
    for (const name of ["setup.exe", "macro.docm", "no-extension", "poc.txt.bat"]) {
      const refused = await upload(owner.caller, owner.reportId, multipart(name, "MZ"));
      expect(refused.statusCode, name).toBe(422);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors.file?.[0]).toMatch(
        /^This kind of file is not accepted\. Attach \.txt, /,
      );
    }
    for (const name of ["POC.PNG", "capture.har", "exploit.py", "fix.patch"])
      expect((await upload(owner.caller, owner.reportId, multipart(name, "ok"))).statusCode, name).toBe(201);
  });

  it("takes files from the form right after a signed-out submission, with the report's upload token only", async () => {
    const submitted = await anonymous().post("/api/reports", {
      kind: "plugin",
      product_slug: `attach-anon-${Math.random().toString(36).slice(2, 8)}`,
      product_name: "Attach Plugin",
      affected_version_prefix: "<=",
      affected_version: "3.0.0",
      vulnerability_type: 2,
      owasp_category: 43,
      required_privilege: 3,
      title: "Signed-out report with a proof-of-concept file",
      description: "The uploaded file name is echoed back in the media library without escaping.",
      steps_to_reproduce: "Upload the attached file and open the media library as an administrator.",
      proof_of_concept: "See the attached file: it runs a script in the media library.",
      email: uniqueEmail("attach-anon"),
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const { id, upload_token: token } = submitted.json<{ id: string; upload_token: string }>();
    const url = `/api/reports/${id}/attachments`;
    const headers = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
    const stored = await anonymous().post(`${url}?token=${token}`, multipart("poc.txt", "proof"), {
      headers,
    });
    expect(stored.statusCode, stored.body).toBe(201);
    // Without a token, with a forged one, or with another report's: nothing is stored.
    expect((await anonymous().post(url, multipart("poc.txt", "x"), { headers })).statusCode).toBe(401);
    expect(
      (await anonymous().post(`${url}?token=forged.token`, multipart("poc.txt", "x"), { headers }))
        .statusCode,
    ).toBe(404);
    const other = await researcherWithReport();
    expect(
      (
        await anonymous().post(
          `/api/reports/${other.reportId}/attachments?token=${token}`,
          multipart("a.txt", "x"),
          {
            headers,
          },
        )
      ).statusCode,
    ).toBe(404);
    // The upload token reads nothing.
    expect((await anonymous().get(`/api/reports/${id}?token=${token}`)).statusCode).toBe(404);
    const staffView = (await staff.get(`/api/staff/reports/${id}`)).json<{ attachments: Attachment[] }>();
    expect(staffView.attachments.map((item) => item.filename)).toEqual(["poc.txt"]);
  });

  it("lets the owning vendor and the PIN contact download, but not upload", async () => {
    const owner = await researcherWithReport();
    const contact = uniqueEmail("attach-contact");
    const id = owner.reportId;
    const stored = (await upload(owner.caller, id, multipart("poc.txt", "proof"))).json<Attachment>();
    await harness.database.sql.query(
      "update products set vendor_contact_email = $2 where id = (select product_id from reports where id = $1)",
      [id, contact],
    );
    for (const step of [
      { action: "take_into_review" },
      {
        action: "validate",
        vulnerability_type: 2,
        owasp_category: 43,
        required_privilege: 3,
        affected_version_prefix: "<=",
        affected_version: "3.0.0",
        cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
      },
      { action: "notify_vendor" },
    ]) {
      expect((await staff.post(`/api/staff/reports/${id}/transitions`, step)).statusCode).toBe(200);
    }
    const { rows } = await harness.database.sql.query<{ text_body: string }>(
      "select text_body from mail_outbox where to_address = $1 and template = 'report_pin'",
      [contact],
    );
    const pin = /is: ([0-9]{6})/.exec(rows[0]?.text_body ?? "")?.[1];
    const caller = anonymous();
    const url = `/api/report-previews/${id}/attachments/${stored.id}`;
    expect((await caller.get(url)).statusCode).toBe(401);
    expect((await caller.post(`/api/report-previews/${id}/pin`, { pin })).statusCode).toBe(200);
    const download = await caller.get(url);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("proof");
    expect(download.headers["content-disposition"]).toMatch(/^attachment;/);
    const preview = await caller.get(`/api/report-previews/${id}`);
    expect(preview.json<{ attachments: Attachment[] }>().attachments.map((item) => item.id)).toEqual([
      stored.id,
    ]);
  });
});
