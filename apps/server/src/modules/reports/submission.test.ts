import { describe, expect, it } from "vitest";
import { registerUser, uniqueEmail } from "../../test/api-client.ts";
import { REPORT_RATE_LIMITS } from "./rate-limits.ts";
import { type Detail, reportTestApp, sampleReport } from "./report-test-kit.ts";

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
type Listed = { data: { id: string; status: string }[]; pagination: { total: number } };

const kit = reportTestApp();

describe("submitting a report (PRODUCT.md §3)", () => {
  it("stores a signed-in researcher's report with its first timeline event and e-mails them", async () => {
    const researcher = await kit.researcherAccount();
    const submitted = await kit.submit(researcher.caller);
    expect(submitted).toMatchObject({ status: "submitted", account_created: false, magic_link_sent: false });

    const { rows } = await kit.harness.database.sql.query<{
      status: string;
      researcher_id: number;
      title: string;
    }>("select status, researcher_id, title from reports where id = $1", [submitted.id]);
    expect(rows[0]).toMatchObject({ status: "submitted", title: "Stored XSS through the widget title" });
    const events = await kit.harness.database.sql.query<{ action: string; to_state: string }>(
      "select action, to_state from report_events where report_id = $1",
      [submitted.id],
    );
    expect(events.rows).toEqual([{ action: "submit", to_state: "submitted" }]);
    const mail = await kit.mailTo(researcher.email);
    expect(mail.map((row) => row.template)).toContain("report_received");
    expect(mail.find((row) => row.template === "report_received")?.text_body).toContain(
      `/researchers/reports/${submitted.id}/preview`,
    );

    const own = await researcher.caller.get(`/api/reports/${submitted.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json<ReportDetail>()).toMatchObject({ status: "submitted", actions: [] });
    expect(own.json<ReportDetail>()).not.toHaveProperty("reporter_email");
  });

  it("refuses a signed-in account whose e-mail is not verified (403) and stores nothing", async () => {
    const unverified = await registerUser(kit.harness.app, { role: "researcher" });
    const refused = await unverified.caller.post("/api/reports", sampleReport());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: "Verify your e-mail address before submitting a report.",
    });
    const { rows } = await kit.harness.database.sql.query<{ count: number }>(
      "select count(*)::int as count from reports where submitted_by_user_id = $1",
      [unverified.user.id],
    );
    expect(rows[0]?.count).toBe(0);
    // Signed out with that very address still works: the magic link verifies it.
    expect((await kit.submit(kit.anonymous(), { email: unverified.email })).magic_link_sent).toBe(true);
  });

  it("answers 422 with a message for each bad field and stores nothing", async () => {
    const researcher = await kit.researcherAccount();
    const response = await researcher.caller.post(
      "/api/reports",
      sampleReport({
        kind: "library",
        title: "short",
        vulnerability_type: 43,
        owasp_category: "A1",
        required_privilege: 0,
        description: "too short",
        cvss_vector: "CVSS:3.1/AV:X",
        affected_version_prefix: ">=",
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      kind: ["Software kind must be plugin, theme or core."],
      affected_version_prefix: ['The version prefix must be "<=", "<" or empty (a specific version).'],
      vulnerability_type: ["Must be a vulnerability type code from 1 to 42."],
      owasp_category: ["Must be an OWASP category code from 41 to 50."],
      required_privilege: ["Must be a WordPress role code from 1 to 9."],
      title: ["The title must be 10 to 200 characters long."],
      description: ["The description must be at least 30 characters long."],
      cvss_vector: ["Invalid value X for metric AV."],
    });
    const { rows } = await kit.harness.database.sql.query<{ count: number }>(
      "select count(*)::int as count from reports r join researchers rs on rs.id = r.researcher_id where rs.user_id = $1",
      [researcher.user.id],
    );
    expect(rows[0]?.count).toBe(0);
  });

  it("answers odd bodies with a 4xx, ignores unknown fields and stores metacharacters as text", async () => {
    const researcher = await kit.researcherAccount();
    expect((await researcher.caller.post("/api/reports", "text")).statusCode).toBe(415);
    for (const body of [
      [],
      { title: 42 },
      { ...sampleReport(), vulnerability_type: "2'; drop table reports;--" },
    ]) {
      const response = await researcher.caller.post("/api/reports", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
    }
    const tooLong = await researcher.caller.post(
      "/api/reports",
      sampleReport({ steps_to_reproduce: "y".repeat(50_001) }),
    );
    expect(tooLong.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      steps_to_reproduce: ["The steps to reproduce must be at most 50,000 characters long."],
    });
    const hostile = "Robert'); DROP TABLE reports;-- <img src=x onerror=alert(1)>";
    const stored = await kit.submit(researcher.caller, {
      title: hostile,
      is_staff: true,
      status: "published",
    });
    const detail = (await researcher.caller.get(`/api/reports/${stored.id}`)).json<
      Detail & { title: string }
    >();
    expect(detail).toMatchObject({ title: hostile, status: "submitted" });
    for (const id of ["1", "00000000-0000-4000-8000-00000000000g", "%27"]) {
      expect(
        (await kit.staff.post(`/api/staff/reports/${id}/transitions`, { action: "publish" })).statusCode,
      ).toBe(404);
    }
  });

  it("creates an account, a researcher and a lobby product for a signed-out reporter, and sends a magic link", async () => {
    const email = uniqueEmail("reporter");
    const slug = `brand-new-plugin-${Math.random().toString(36).slice(2, 8)}`;
    const submitted = await kit.submit(kit.anonymous(), {
      email,
      product_slug: slug,
      product_name: "Brand New",
    });
    expect(submitted).toMatchObject({ account_created: true, magic_link_sent: true });

    const user = await kit.harness.database.sql.query<{ password_hash: string | null; researcher: boolean }>(
      `select u.password_hash, exists (select 1 from researchers r where r.user_id = u.id) as researcher
       from users u where u.email = $1`,
      [email],
    );
    expect(user.rows[0]).toEqual({ password_hash: null, researcher: true });
    // Credited publicly under a name that says nothing of the address (issue 19: its local part was).
    const names = await kit.harness.database.sql.query<{ account: string; credit: string }>(
      `select u.name as account, r.display_name as credit
       from users u join researchers r on r.user_id = u.id where u.email = $1`,
      [email],
    );
    const localPart = email.split("@")[0]!;
    expect(names.rows[0]?.credit).toMatch(/^Researcher [0-9a-f]{6}$/);
    expect(names.rows[0]?.credit).not.toContain(localPart);
    expect(names.rows[0]?.account).not.toContain(localPart);
    const product = await kit.harness.database.sql.query(
      "select name, is_lobby_product, vendor_id from products where kind = 'plugin' and slug = $1",
      [slug],
    );
    expect(product.rows[0]).toEqual({ name: "Brand New", is_lobby_product: true, vendor_id: null });
    expect((await kit.mailTo(email)).map((row) => row.template).sort()).toEqual([
      "magic_link",
      "report_received",
    ]);
    const detail = await kit.staff.get(`/api/staff/reports/${submitted.id}`);
    expect(detail.json<ReportDetail>().reporter_email).toBe(email);
  });

  it("picks an existing product by kind and slug, whatever the slug's case, and keeps its name", async () => {
    const researcher = await kit.researcherAccount();
    const slug = `known-plugin-${Math.random().toString(36).slice(2, 8)}`;
    await kit.submit(researcher.caller, { product_slug: slug, product_name: "Known Plugin" });
    await kit.submit(researcher.caller, { product_slug: slug.toUpperCase(), product_name: "Other name" });
    await kit.submit(researcher.caller, { kind: "theme", product_slug: slug, product_name: "Known Theme" });
    const { rows } = await kit.harness.database.sql.query(
      "select kind, slug, name from products where lower(slug) = $1 order by kind",
      [slug],
    );
    expect(rows).toEqual([
      { kind: "plugin", slug, name: "Known Plugin" },
      { kind: "theme", slug, name: "Known Theme" },
    ]);
  });

  it("links a signed-out report to the existing account of its e-mail", async () => {
    const researcher = await kit.researcherAccount();
    const submitted = await kit.submit(kit.anonymous(), { email: researcher.email.toUpperCase() });
    expect(submitted.account_created).toBe(false);
    const listed = await researcher.caller.get("/api/researcher/reports?tab=in-review");
    expect(listed.json<Listed>().data.map((row) => row.id)).toEqual([submitted.id]);
  });

  it("takes a signed-out report without the CSRF pair (vendor embeds), but not a signed-in one", async () => {
    const email = `embed-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const framed = await kit.anonymous().post("/api/reports", sampleReport({ email }), { csrf: false });
    expect(framed.statusCode, framed.body).toBe(201);
    const researcher = await kit.researcherAccount();
    const forged = await researcher.caller.post("/api/reports", sampleReport(), { csrf: false });
    expect(forged.statusCode).toBe(419);
  });

  it("requires the e-mail only when signed out", async () => {
    const response = await kit.anonymous().post("/api/reports", sampleReport());
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      email: ["Your e-mail address is required when you are not signed in."],
    });
  });

  it("flags a report with the same product and type as a possible duplicate, and keeps it", async () => {
    const researcher = await kit.researcherAccount();
    const slug = `dup-plugin-${Math.random().toString(36).slice(2, 8)}`;
    const first = await kit.submit(researcher.caller, { product_slug: slug });
    const second = await kit.submit(researcher.caller, { product_slug: slug });
    const otherType = await kit.submit(researcher.caller, { product_slug: slug, vulnerability_type: 1 });
    const detail = async (id: string) =>
      (await kit.staff.get(`/api/staff/reports/${id}`)).json<ReportDetail>();
    expect((await detail(first.id)).possible_duplicate_of).toBeNull();
    expect((await detail(second.id)).possible_duplicate_of).toBe(first.id);
    expect((await detail(otherType.id)).possible_duplicate_of).toBeNull();
    const queue = await kit.staff.get("/api/staff/reports?status=submitted&per_page=100");
    expect(queue.json<Listed>().data.map((row) => row.id)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
  });

  it("limits anonymous submissions per e-mail address", async () => {
    const email = uniqueEmail("flood");
    for (let index = 0; index < 5; index += 1) await kit.submit(kit.anonymous(), { email });
    const refused = await kit.anonymous().post("/api/reports", sampleReport({ email }));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
  });

  it("limits a signed-in researcher's submissions per hour with 429 and Retry-After, not another's", async () => {
    const researcher = await kit.researcherAccount();
    const [allowed] = REPORT_RATE_LIMITS.submitUser;
    for (let index = 0; index < allowed; index += 1)
      await kit.submit(researcher.caller, { product_slug: `burst-${index}` });
    const refused = await researcher.caller.post("/api/reports", sampleReport());
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
    expect(refused.json().message).toMatch(/^Too many reports/);
    const { rows } = await kit.harness.database.sql.query<{ count: number }>(
      "select count(*)::int as count from reports where submitted_by_user_id = $1",
      [researcher.user.id],
    );
    expect(rows[0]?.count).toBe(allowed);
    const other = await kit.researcherAccount();
    expect((await other.caller.post("/api/reports", sampleReport())).statusCode).toBe(201);
  });

  it("limits anonymous submissions per IP address", async () => {
    const caller = kit.anonymous();
    for (let index = 0; index < 10; index += 1) await kit.submit(caller, { email: uniqueEmail("ip") });
    expect((await caller.post("/api/reports", sampleReport({ email: uniqueEmail("ip") }))).statusCode).toBe(
      429,
    );
  });
});
