import { describe, expect, it } from "vitest";
import { registerUser } from "../../test/api-client.ts";
import { type Detail, reportTestApp, sampleValidation } from "./report-test-kit.ts";

type ReportDetail = Detail & {
  possible_duplicate_of?: string | null;
  reporter_email?: string | null;
  cvss_score: number | null;
  severity: string | null;
  fix_deadline_at: string | null;
  vendor_notified_at: string | null;
  fixed_at: string | null;
  public_path: string | null;
  rejection_reason: string | null;
};
type Listed = {
  data: { id: string; status: string; rejection_reason?: string | null }[];
  pagination: { total: number };
};

const kit = reportTestApp();

/** Validated with the fixed version and the CVE the published record shows. */
const validation = (overrides: Record<string, unknown> = {}) =>
  sampleValidation({ fixed_version: "2.4.2", cve: "CVE-2026-10001", ...overrides });

describe("who sees a report", () => {
  it("shows a researcher only their own reports; another researcher's or a malformed id is 404", async () => {
    const owner = await kit.researcherAccount();
    const other = await kit.researcherAccount();
    const submitted = await kit.submit(owner.caller);
    expect((await other.caller.get(`/api/reports/${submitted.id}`)).statusCode).toBe(404);
    expect((await other.caller.get("/api/reports/not-a-uuid")).statusCode).toBe(404);
    expect((await other.caller.get("/api/researcher/reports?tab=in-review")).json<Listed>().data).toEqual([]);
    expect(
      (await owner.caller.get("/api/researcher/reports?tab=in-review")).json<Listed>().data,
    ).toHaveLength(1);
    expect((await owner.caller.get("/api/researcher/reports?tab=rejected")).json<Listed>().data).toEqual([]);
    expect((await owner.caller.get("/api/researcher/reports?tab=unknown")).statusCode).toBe(422);
  });
});

describe("the report lifecycle through the API (PRODUCT.md §2)", () => {
  it("goes from submitted to published with a timeline, the vendor's fix, e-mail and a credited public record", async () => {
    const slug = `acme-gallery-${Math.random().toString(36).slice(2, 8)}`;
    const vendor = await kit.vendorWithProgram(slug, { fixDeadlineDays: 14 });
    const otherVendor = await registerUser(kit.harness.app, { role: "vendor" });
    const researcher = await kit.researcherAccount({ name: "Ada Finder" });
    const { id } = await kit.submit(researcher.caller, { product_slug: slug, product_name: "ignored name" });

    // Not the vendor's before validation.
    expect((await vendor.caller.get(`/api/reports/${id}`)).statusCode).toBe(404);
    expect((await kit.transition(id, { action: "take_into_review", note: "Looking" })).status).toBe(
      "in_review",
    );
    const validated = await kit.transition<ReportDetail>(id, validation());
    expect(validated).toMatchObject({ status: "validated", cvss_score: 5.4, severity: "medium" });
    expect((await vendor.caller.get(`/api/reports/${id}`)).statusCode).toBe(200);
    expect((await otherVendor.caller.get(`/api/reports/${id}`)).statusCode).toBe(404);
    expect(
      (await vendor.caller.get("/api/vendor/reports?tab=awaiting_fix"))
        .json<Listed>()
        .data.map((row) => row.id),
    ).toEqual([id]);
    expect(
      (await otherVendor.caller.get("/api/vendor/reports?tab=awaiting_fix")).json<Listed>().data,
    ).toEqual([]);

    const notified = await kit.transition<ReportDetail>(id, { action: "notify_vendor" });
    expect(notified.status).toBe("awaiting_fix");
    const days =
      (Date.parse(notified.fix_deadline_at ?? "") - Date.parse(notified.vendor_notified_at ?? "")) /
      86_400_000;
    expect(days).toBeCloseTo(14, 5);
    const vendorView = (await vendor.caller.get(`/api/reports/${id}`)).json<ReportDetail>();
    expect(vendorView.actions).toEqual(["submit_fix"]);
    expect(vendorView).not.toHaveProperty("reporter_email");
    expect(vendorView.timeline.every((event) => !("actor" in event))).toBe(true);
    const notice = (await kit.mailTo(vendor.email)).find((row) => row.template === "report_vendor_notified");
    expect(notice?.text_body).toContain(`/vdp/vulnerabilities/${id}/preview`);
    expect(notice?.text_body).toContain(notified.fix_deadline_at?.slice(0, 10));

    const fix = await vendor.caller.post(`/api/vendor/reports/${id}/fix`, {
      fixed_version: "2.4.2",
      notes: "Escaped.",
    });
    expect(fix.statusCode, fix.body).toBe(200);
    expect(fix.json<ReportDetail>()).toMatchObject({ status: "fix_pending", fixed_version: "2.4.2" });
    expect(
      (await otherVendor.caller.post(`/api/vendor/reports/${id}/fix`, { fixed_version: "9" })).statusCode,
    ).toBe(404);
    expect((await kit.transition(id, { action: "mark_fix_insufficient", note: "Still fires" })).status).toBe(
      "awaiting_fix",
    );
    await vendor.caller.post(`/api/vendor/reports/${id}/fix`, { fixed_version: "2.4.3" });
    const verified = await kit.transition<ReportDetail>(id, { action: "verify_fix" });
    expect(verified.status).toBe("fixed");
    expect(verified.fixed_at).not.toBeNull();
    expect(
      (await researcher.caller.get("/api/researcher/reports?tab=validated"))
        .json<Listed>()
        .data.map((row) => row.id),
    ).toEqual([id]);

    const versionBefore = await dataVersion();
    const published = await kit.transition<ReportDetail>(id, { action: "publish", note: "Thanks!" });
    expect(published.status).toBe("published");
    expect(published.public_path).toMatch(new RegExp(`^/database/wordpress/plugin/${slug}/vulnerability/`));
    expect(Number(await dataVersion())).toBeGreaterThan(Number(versionBefore));
    expect(published.timeline.map((event) => [event.action, event.from_state, event.to_state])).toEqual([
      ["submit", null, "submitted"],
      ["take_into_review", "submitted", "in_review"],
      ["validate", "in_review", "validated"],
      ["notify_vendor", "validated", "awaiting_fix"],
      ["submit_fix", "awaiting_fix", "fix_pending"],
      ["mark_fix_insufficient", "fix_pending", "awaiting_fix"],
      ["submit_fix", "awaiting_fix", "fix_pending"],
      ["verify_fix", "fix_pending", "fixed"],
      ["publish", "fixed", "published"],
    ]);

    const record = await kit.harness.database.sql.query<Record<string, unknown>>(
      `select v.source, v.fixed_in, v.patched, v.cve, v.cvss_score::float8 as cvss_score, v.severity, v.type_code,
         (select array_agg(rs.display_name) from credits c join researchers rs on rs.id = c.researcher_id
          where c.vulnerability_id = v.id) as credited,
         (select row_to_json(ar) from affected_ranges ar where ar.vulnerability_id = v.id) as range
       from reports r join vulnerabilities v on v.id = r.vulnerability_id where r.id = $1`,
      [id],
    );
    expect(record.rows[0]).toMatchObject({
      source: "pressguard",
      fixed_in: "2.4.3",
      patched: true,
      cve: "CVE-2026-10001",
      cvss_score: 5.4,
      severity: "medium",
      type_code: 2,
      credited: ["Ada Finder"],
      range: expect.objectContaining({
        prefix: "<=",
        version: "2.4.1",
        last_affected: "2.4.1",
        fixed: "2.4.3",
      }),
    });
    const vulnerabilitySlug = published.public_path?.split("/").at(-1) ?? "";
    const publicRecord = await kit.harness.app.inject({
      method: "GET",
      url: `/api/v1/vulnerabilities/${vulnerabilitySlug}`,
    });
    expect(publicRecord.statusCode, publicRecord.body).toBe(200);
    expect(publicRecord.json()).toMatchObject({
      slug: vulnerabilitySlug,
      patched: true,
      fixed_in: "2.4.3",
      credits: [expect.objectContaining({ display_name: "Ada Finder" })],
    });
    // PRODUCT.md §5: medium gives 4 points, doubled for a product with an active program.
    const leaderboard = await kit.harness.app.inject({ method: "GET", url: "/api/v1/leaderboard/monthly" });
    expect(
      leaderboard
        .json<{ data: { display_name: string; points: number }[] }>()
        .data.find((entry) => entry.display_name === "Ada Finder"),
    ).toMatchObject({ points: 8 });
    expect(
      (await researcher.caller.get("/api/researcher/reports?tab=published"))
        .json<Listed>()
        .data.map((row) => row.id),
    ).toEqual([id]);
    expect((await kit.mailTo(researcher.email)).map((row) => row.template)).toEqual([
      "email_verification",
      "report_received",
      "report_in_review",
      "report_validated",
      // The vendor's first fix was marked insufficient, so a second one followed.
      "report_fix_submitted",
      "report_fix_submitted",
      "report_fixed",
      "report_published",
    ]);
  });

  it("refuses an action the current state does not allow with 409 and a clear message", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    const refused = await kit.staff.post(`/api/staff/reports/${id}/transitions`, {
      action: "reject",
      reason: "invalid",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: "A report in submitted cannot be rejected." });
    expect(
      (await kit.staff.post(`/api/staff/reports/${id}/transitions`, { action: "publish" })).statusCode,
    ).toBe(409);
    expect((await kit.staff.post(`/api/staff/reports/${id}/transitions`, { action: "fly" })).statusCode).toBe(
      422,
    );
    // Nothing was written by the refusals.
    const events = await kit.harness.database.sql.query("select 1 from report_events where report_id = $1", [
      id,
    ]);
    expect(events.rows).toHaveLength(1);
  });

  it("rejects with a reason, which it requires, and tells the researcher", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    await kit.transition(id, { action: "take_into_review" });
    const missing = await kit.staff.post(`/api/staff/reports/${id}/transitions`, { action: "reject" });
    expect(missing.statusCode).toBe(422);
    expect(missing.json<{ errors: Record<string, string[]> }>().errors.reason).toEqual([
      "reason must be one of duplicate, out_of_scope, invalid, not_reproducible, informative.",
    ]);
    const rejected = await kit.transition<ReportDetail>(id, {
      action: "reject",
      reason: "not_reproducible",
      note: "No effect on 2.4.1.",
    });
    expect(rejected).toMatchObject({ status: "rejected", rejection_reason: "not_reproducible", actions: [] });
    const mail = (await kit.mailTo(researcher.email)).find((row) => row.template === "report_rejected");
    expect(mail?.text_body).toContain("Reason: Not reproducible — No effect on 2.4.1.");
    // The rejected tab says why, as it promises (issue 19).
    expect(
      (await researcher.caller.get("/api/researcher/reports?tab=rejected"))
        .json<Listed>()
        .data.map((row) => [row.id, row.rejection_reason]),
    ).toEqual([[id, "not_reproducible"]]);
  });

  it("names every field an action's body gets wrong at once, the note's with the action's own", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    await kit.transition(id, { action: "take_into_review" });
    const refused = await kit.staff.post(`/api/staff/reports/${id}/transitions`, {
      action: "validate",
      note: 42,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ errors: Record<string, string[]> }>().errors).toMatchObject({
      note: ["The note must be text."],
      affected_version: ["The affected version is required."],
      cvss_vector: ["A CVSS 3.1 vector is required to validate a report."],
    });
    const unknown = await kit.staff.post(`/api/staff/reports/${id}/transitions`, { action: "fly" });
    expect(unknown.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      action: [
        "action must be one of take_into_review, reject, validate, notify_vendor, submit_fix, mark_fix_insufficient, verify_fix, publish, publish_unpatched.",
      ],
    });
    expect((await kit.staff.get(`/api/staff/reports/${id}`)).json<ReportDetail>().status).toBe("in_review");
  });

  it("documents each action's own fields in the OpenAPI document", async () => {
    const document = (await kit.harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Ref }> } }>>;
      components: { schemas: Record<string, Member & { oneOf?: (Member | Ref)[] }> };
    }>();
    type Ref = { $ref?: string };
    type Member = { properties?: { action?: { const?: string } }; required?: string[] };
    const resolve = <T>(schema: Ref): T =>
      (schema.$ref ? document.components.schemas[schema.$ref.split("/").at(-1) ?? ""] : schema) as T;
    const body = resolve<{ oneOf?: Ref[] }>(
      document.paths["/api/staff/reports/{id}/transitions"]?.post?.requestBody.content["application/json"]
        ?.schema ?? {},
    );
    const requiredOf = (action: string) =>
      (body.oneOf ?? [])
        .map((member) => resolve<Member>(member))
        .find((member) => member.properties?.action?.const === action)?.required;
    expect(requiredOf("reject")).toEqual(expect.arrayContaining(["action", "reason"]));
    expect(requiredOf("validate")).toEqual(
      expect.arrayContaining(["action", "vulnerability_type", "affected_version"]),
    );
  });

  it("validates only with a valid CVSS 3.1 vector", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    await kit.transition(id, { action: "take_into_review" });
    const bad = await kit.staff.post(
      `/api/staff/reports/${id}/transitions`,
      validation({ cvss_vector: "CVSS:3.1/AV:N" }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.cvss_vector).toEqual([
      "Missing base metrics: AC, PR, UI, S, C, I, A.",
    ]);
  });

  it("publishes unpatched only once the fix deadline has passed", async () => {
    const researcher = await kit.researcherAccount();
    const id = await kit.awaitingFix(researcher.caller);
    const early = await kit.staff.post(`/api/staff/reports/${id}/transitions`, {
      action: "publish_unpatched",
    });
    expect(early.statusCode).toBe(409);
    expect(early.json<{ message: string }>().message).toMatch(/only after the vendor's fix deadline/);
    await kit.harness.database.sql.query(
      "update reports set fix_deadline_at = now() - interval '1 day' where id = $1",
      [id],
    );
    expect((await kit.transition(id, { action: "publish_unpatched" })).status).toBe("published");
    const record = await kit.harness.database.sql.query(
      "select v.fixed_in, v.patched from reports r join vulnerabilities v on v.id = r.vulnerability_id where r.id = $1",
      [id],
    );
    expect(record.rows[0]).toEqual({ fixed_in: null, patched: false });
  });
});

describe("comments on a report", () => {
  it("shares researcher–vendor comments and keeps staff-only ones from the researcher", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    const own = await researcher.caller.post(`/api/reports/${id}/comments`, {
      body: "More detail: it needs PHP 8.",
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(
      (await researcher.caller.post(`/api/reports/${id}/comments`, { body: "x", visibility: "staff" }))
        .statusCode,
    ).toBe(403);
    expect(
      (await kit.staff.post(`/api/reports/${id}/comments`, { body: "Triager note", visibility: "staff" }))
        .statusCode,
    ).toBe(201);
    const seenByResearcher = (await researcher.caller.get(`/api/reports/${id}`)).json<ReportDetail>()
      .comments;
    expect(seenByResearcher.map((comment) => comment.body)).toEqual(["More detail: it needs PHP 8."]);
    const seenByStaff = (await kit.staff.get(`/api/staff/reports/${id}`)).json<ReportDetail>().comments;
    expect(seenByStaff.map((comment) => comment.visibility)).toEqual(["vendor_researcher", "staff"]);
    const other = await kit.researcherAccount();
    expect((await other.caller.post(`/api/reports/${id}/comments`, { body: "hi" })).statusCode).toBe(404);
  });
});

async function dataVersion() {
  const { rows } = await kit.harness.database.sql.query<{ version: string }>(
    "select value #>> '{}' as version from app_state where key = 'data_version'",
  );
  return rows[0]?.version ?? "0";
}
