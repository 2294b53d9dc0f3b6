import { describe, expect, it } from "vitest";
import { registerUser } from "../../test/api-client.ts";
import { type Detail, reportTestApp } from "./report-test-kit.ts";

/** Issue 19: duplicates are found among the product's published records and reports, and closed as such. */
const kit = reportTestApp();

type DuplicateOf = { kind: string; title: string | null; public_path: string | null; id?: string };
type DupDetail = Detail & {
  public_path: string | null;
  possible_duplicate_of: string | null;
  possible_duplicate_of_vulnerability_id: string | null;
  duplicate_of: DuplicateOf | null;
  rejection_reason: string | null;
};
type Candidates = {
  data: { kind: string; id: string; title: string; match: string; public_path: string | null }[];
  known_vulnerability_count: number;
};

const slugOf = () => `dup-plugin-${Math.random().toString(36).slice(2, 8)}`;

/** A report on `slug` published unpatched: the product's public record. Answers its record id and path. */
async function publishedRecord(slug: string, overrides: Record<string, unknown> = {}) {
  const researcher = await kit.researcherAccount({ name: "First Finder" });
  const id = await kit.awaitingFix(researcher.caller, { product_slug: slug, ...overrides });
  await kit.harness.database.sql.query(
    "update reports set fix_deadline_at = now() - interval '1 day' where id = $1",
    [id],
  );
  const report = await kit.transition<DupDetail>(id, { action: "publish_unpatched" });
  const { rows } = await kit.harness.database.sql.query<{ id: string }>(
    "select vulnerability_id::text as id from reports where id = $1",
    [id],
  );
  return { reportId: id, vulnerabilityId: rows[0]!.id, publicPath: report.public_path! };
}

const staffDetail = async (id: string) => (await kit.staff.get(`/api/staff/reports/${id}`)).json<DupDetail>();
const candidatesOf = (id: string) => kit.staff.get(`/api/staff/reports/${id}/duplicate-candidates`);

describe("possible duplicates among published records", () => {
  it("flags a new report of the same type on a product with a published record", async () => {
    const slug = slugOf();
    const record = await publishedRecord(slug, { title: "Stored XSS in the settings page" });
    const researcher = await kit.researcherAccount();
    const same = await kit.submit(researcher.caller, { product_slug: slug, affected_version: "2.0" });
    const otherType = await kit.submit(researcher.caller, {
      product_slug: slug,
      vulnerability_type: 5,
      affected_version: "2.0",
    });
    const elsewhere = await kit.submit(researcher.caller);

    expect((await staffDetail(same.id)).possible_duplicate_of_vulnerability_id).toBe(record.vulnerabilityId);
    expect((await staffDetail(otherType.id)).possible_duplicate_of_vulnerability_id).toBeNull();
    expect((await staffDetail(elsewhere.id)).possible_duplicate_of_vulnerability_id).toBeNull();
    // The researcher never reads staff's flags.
    const own = (await researcher.caller.get(`/api/reports/${same.id}`)).json<DupDetail>();
    expect(own.possible_duplicate_of_vulnerability_id).toBeUndefined();
  });

  it("ranks same type and overlapping versions first, then same type, then overlapping versions", async () => {
    const slug = slugOf();
    const record = await publishedRecord(slug);
    const researcher = await kit.researcherAccount();
    const sameTypeLater = await kit.submit(researcher.caller, {
      product_slug: slug,
      affected_version_prefix: "",
      affected_version: "3.0",
      title: "XSS in 3.0 only",
    });
    const otherTypeOverlap = await kit.submit(researcher.caller, {
      product_slug: slug,
      vulnerability_type: 5,
      affected_version_prefix: "",
      affected_version: "1.0",
    });
    const unrelated = await kit.submit(researcher.caller, {
      product_slug: slug,
      vulnerability_type: 5,
      affected_version_prefix: "",
      affected_version: "9.0",
    });
    const probe = await kit.submit(researcher.caller, {
      product_slug: slug,
      affected_version_prefix: "<",
      affected_version: "2.0",
    });

    const response = await candidatesOf(probe.id);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<Candidates>();
    expect(answer.known_vulnerability_count).toBe(1);
    expect(answer.data.map((one) => [one.kind, one.id, one.match])).toEqual([
      ["vulnerability", record.vulnerabilityId, "type_and_versions"],
      ["report", sameTypeLater.id, "type"],
      ["report", otherTypeOverlap.id, "versions"],
    ]);
    expect(answer.data[0]!.public_path).toBe(record.publicPath);
    expect(answer.data.map((one) => one.id)).not.toContain(unrelated.id);
    expect(answer.data.map((one) => one.id)).not.toContain(probe.id);
  });

  it("is for staff only", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    expect((await researcher.caller.get(`/api/staff/reports/${id}/duplicate-candidates`)).statusCode).toBe(
      403,
    );
    const vendor = await registerUser(kit.harness.app, { role: "vendor" });
    expect((await vendor.caller.get(`/api/staff/reports/${id}/duplicate-candidates`)).statusCode).toBe(403);
  });
});

describe("marking a report a duplicate", () => {
  it("names the public record to the researcher, on the report and in the mail", async () => {
    const slug = slugOf();
    const record = await publishedRecord(slug, { title: "Stored XSS in the settings page" });
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller, { product_slug: slug });
    await kit.transition(id, { action: "take_into_review" });
    const staffView = await kit.transition<DupDetail>(id, {
      action: "reject",
      reason: "duplicate",
      duplicate_of_vulnerability_id: record.vulnerabilityId,
    });
    expect(staffView.duplicate_of).toEqual({
      kind: "vulnerability",
      id: record.vulnerabilityId,
      title: "Stored XSS in the settings page",
      public_path: record.publicPath,
    });

    const seen = (await researcher.caller.get(`/api/reports/${id}`)).json<DupDetail>();
    expect(seen.duplicate_of).toEqual({
      kind: "vulnerability",
      title: "Stored XSS in the settings page",
      public_path: record.publicPath,
    });
    const [mail] = await kit.mailOf(researcher.email, "report_rejected");
    expect(mail?.text_body).toContain(`Closed as a duplicate of Stored XSS in the settings page`);
    expect(mail?.text_body).toContain(record.publicPath);
  });

  it("never names a report that is not public to the researcher", async () => {
    const slug = slugOf();
    const first = await kit.researcherAccount();
    const original = await kit.submit(first.caller, { product_slug: slug, title: "Secret original finding" });
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller, { product_slug: slug });
    await kit.transition(id, { action: "take_into_review" });
    const staffView = await kit.transition<DupDetail>(id, {
      action: "reject",
      reason: "duplicate",
      duplicate_of_report_id: original.id,
    });
    expect(staffView.duplicate_of).toMatchObject({
      kind: "report",
      id: original.id,
      title: "Secret original finding",
    });

    const response = await researcher.caller.get(`/api/reports/${id}`);
    expect(response.json<DupDetail>().duplicate_of).toEqual({
      kind: "report",
      title: null,
      public_path: null,
    });
    expect(response.body).not.toContain("Secret original finding");
    const [mail] = await kit.mailOf(researcher.email, "report_rejected");
    expect(mail?.text_body).toContain("Closed as a duplicate of an earlier report.");
    expect(mail?.text_body).not.toContain("Secret original finding");
  });

  it("links a duplicated report once it is published", async () => {
    const slug = slugOf();
    const record = await publishedRecord(slug, { title: "Published original" });
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller, { product_slug: slug });
    await kit.transition(id, { action: "take_into_review" });
    await kit.transition(id, {
      action: "reject",
      reason: "duplicate",
      duplicate_of_report_id: record.reportId,
    });
    const seen = (await researcher.caller.get(`/api/reports/${id}`)).json<DupDetail>();
    expect(seen.duplicate_of).toEqual({
      kind: "report",
      title: "Published original",
      public_path: record.publicPath,
    });
  });

  it("refuses an original on another product, the report itself, or with another reason (422)", async () => {
    const elsewhere = await publishedRecord(slugOf());
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    const other = await kit.submit(researcher.caller);
    await kit.transition(id, { action: "take_into_review" });
    const refused = async (body: Record<string, unknown>, field: string, message: RegExp) => {
      const response = await kit.staff.post(`/api/staff/reports/${id}/transitions`, {
        action: "reject",
        ...body,
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(JSON.stringify(response.json())).toMatch(message);
      expect(response.body).toContain(field);
    };
    await refused(
      { reason: "duplicate", duplicate_of_vulnerability_id: elsewhere.vulnerabilityId },
      "duplicate_of_vulnerability_id",
      /same product/,
    );
    await refused(
      { reason: "duplicate", duplicate_of_report_id: other.id },
      "duplicate_of_report_id",
      /same product/,
    );
    await refused({ reason: "duplicate", duplicate_of_report_id: id }, "duplicate_of_report_id", /itself/);
    await refused(
      { reason: "duplicate", duplicate_of_report_id: crypto.randomUUID() },
      "duplicate_of_report_id",
      /does not exist/,
    );
    await refused(
      { reason: "invalid", duplicate_of_vulnerability_id: elsewhere.vulnerabilityId },
      "duplicate_of_vulnerability_id",
      /reason Duplicate/,
    );
    expect((await staffDetail(id)).status).toBe("in_review");
  });

  it("is staff's: the researcher and a vendor get 403", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    const body = { action: "reject", reason: "duplicate" };
    expect((await researcher.caller.post(`/api/staff/reports/${id}/transitions`, body)).statusCode).toBe(403);
    const vendor = await registerUser(kit.harness.app, { role: "vendor" });
    expect((await vendor.caller.post(`/api/staff/reports/${id}/transitions`, body)).statusCode).toBe(403);
  });
});
