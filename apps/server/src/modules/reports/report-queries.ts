import type { ComponentKind, ReportState } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

export interface ReportRow {
  id: string;
  status: ReportState;
  title: string;
  product_id: number;
  platform: string;
  product_kind: ComponentKind;
  product_slug: string;
  product_name: string;
  product_vendor_id: number | null;
  product_is_active: boolean;
  product_is_lobby: boolean;
  /** The product's contact e-mail: where the PIN notice goes when it has no active program. */
  product_contact_email: string | null;
  fix_deadline_days: number;
  researcher_id: number | null;
  researcher_uuid: string | null;
  researcher_name: string | null;
  researcher_user_id: number | null;
  researcher_email: string | null;
  submitted_by_user_id: number | null;
  reporter_email: string | null;
  affected_version_prefix: "<=" | "<" | "" | null;
  affected_version: string | null;
  type_code: number | null;
  owasp_code: number | null;
  required_privilege: number | null;
  description: string | null;
  steps_to_reproduce: string | null;
  proof_of_concept: string | null;
  suggested_fix: string | null;
  reported_cvss_vector: string | null;
  rejection_reason: string | null;
  fixed_version: string | null;
  fix_url: string | null;
  fix_diff: string | null;
  cvss_vector: string | null;
  cvss_score: string | number | null;
  severity: string | null;
  cve: string | null;
  cve_requested_at: Date | string | null;
  possible_duplicate_of: string | null;
  possible_duplicate_of_vulnerability_id: string | null;
  duplicate_of_vulnerability_id: string | null;
  duplicate_of_report_id: string | null;
  /** The original's public record (the record, or the duplicated report once published). */
  duplicate_public_slug: string | null;
  duplicate_public_title: string | null;
  /** The duplicated report's own title: staff only, never shown to the researcher. */
  duplicate_report_title: string | null;
  vulnerability_id: string | null;
  vulnerability_slug: string | null;
  vendor_notified_at: Date | string | null;
  fix_deadline_at: Date | string | null;
  deadline_near_notified_at: Date | string | null;
  deadline_passed_at: Date | string | null;
  fixed_at: Date | string | null;
  validated_at: Date | string | null;
  published_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const REPORT_SELECT = `
  select r.id, r.status, r.title, r.product_id, pl.slug as platform, p.kind as product_kind,
    p.slug as product_slug, p.name as product_name, p.vendor_id as product_vendor_id,
    p.is_active as product_is_active, p.is_lobby_product as product_is_lobby, p.vendor_contact_email as product_contact_email,
    p.fix_deadline_days,
    r.researcher_id, rs.uuid::text as researcher_uuid, rs.display_name as researcher_name,
    rs.user_id as researcher_user_id, ru.email as researcher_email,
    r.submitted_by_user_id, r.reporter_email, r.affected_version_prefix, r.affected_version, r.type_code,
    r.owasp_code, r.required_privilege, r.description, r.steps_to_reproduce, r.proof_of_concept,
    r.suggested_fix, r.reported_cvss_vector, r.rejection_reason, r.fixed_version, r.fix_url, r.fix_diff, r.cvss_vector,
    r.cvss_score, r.severity, r.cve, r.cve_requested_at, r.possible_duplicate_of::text, r.vulnerability_id::text,
    r.possible_duplicate_of_vulnerability_id::text, r.duplicate_of_vulnerability_id::text,
    r.duplicate_of_report_id::text, coalesce(dv.slug, drv.slug) as duplicate_public_slug,
    coalesce(dv.title, drv.title) as duplicate_public_title, dr.title as duplicate_report_title,
    v.slug as vulnerability_slug, r.vendor_notified_at, r.fix_deadline_at, r.deadline_near_notified_at,
    r.deadline_passed_at, r.fixed_at, r.validated_at,
    r.published_at, r.created_at, r.updated_at
  from reports r
  join products p on p.id = r.product_id
  join platforms pl on pl.id = p.platform_id
  left join researchers rs on rs.id = r.researcher_id
  left join users ru on ru.id = rs.user_id
  left join vulnerabilities v on v.id = r.vulnerability_id
  left join vulnerabilities dv on dv.id = r.duplicate_of_vulnerability_id
  left join reports dr on dr.id = r.duplicate_of_report_id
  left join vulnerabilities drv on drv.id = dr.vulnerability_id and dr.status = 'published'`;

export interface ReportListRow {
  id: string;
  status: ReportState;
  title: string;
  platform: string;
  product_kind: string;
  product_slug: string;
  product_name: string;
  type_code: number | null;
  severity: string | null;
  possible_duplicate_of: string | null;
  rejection_reason: string | null;
  cve: string | null;
  cve_requested_at: Date | string | null;
  fix_deadline_at: Date | string | null;
  deadline_passed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const LIST_SELECT = `
  select r.id, r.status, r.title, pl.slug as platform, p.kind as product_kind, p.slug as product_slug,
    p.name as product_name, r.type_code, r.severity, r.possible_duplicate_of::text, r.fix_deadline_at,
    r.deadline_passed_at, r.created_at, r.updated_at, r.rejection_reason, r.cve, r.cve_requested_at
  from reports r
  join products p on p.id = r.product_id
  join platforms pl on pl.id = p.platform_id`;

export interface EventRow {
  id: number;
  action: string;
  from_state: string | null;
  to_state: string;
  note: string | null;
  actor_user_id: number | null;
  actor_name: string | null;
  created_at: Date | string;
}

export interface CommentRow {
  id: number;
  body: string;
  visibility: "staff" | "vendor_researcher";
  author_user_id: number | null;
  author_name: string | null;
  created_at: Date | string;
}

export interface NewEvent {
  reportId: string;
  actorUserId: number | null;
  action: string;
  fromState: string | null;
  toState: string;
  note: string | null;
}

/** Columns a transition may set, by their SQL names. */
export type ReportChanges = Partial<{
  rejection_reason: string | null;
  type_code: number;
  owasp_code: number;
  required_privilege: number;
  affected_version_prefix: string;
  affected_version: string;
  fixed_version: string | null;
  fix_url: string | null;
  fix_diff: string | null;
  cvss_vector: string | null;
  cvss_score: number | null;
  severity: string | null;
  cve: string | null;
  vulnerability_id: string;
  duplicate_of_vulnerability_id: string | null;
  duplicate_of_report_id: string | null;
}>;

/** Timestamps a transition sets to now(), or (the deadline) to now() plus days. */
export type ReportStamps = Partial<{
  validated_at: true;
  vendor_notified_at: true;
  fix_deadline_days: number;
  fixed_at: true;
  published_at: true;
}>;

/** A report and what hangs on it: its timeline, its comments, the lists, its state changes. */
export function createReportQueries(sql: SqlRunner) {
  return {
    async getReport(id: string, tx: SqlRunner = sql, lock = false): Promise<ReportRow | null> {
      // `for update of r` serialises transitions of one report: the state read is the state changed.
      const { rows } = await tx.query<ReportRow>(
        `${REPORT_SELECT} where r.id = $1${lock ? " for update of r" : ""}`,
        [id],
      );
      return rows[0] ?? null;
    },

    async listReports(
      filter: {
        researcherId?: number;
        vendorId?: number;
        statuses?: readonly string[];
        /** Only reports the deadline job flagged (still awaiting a fix). */
        deadlinePassed?: boolean;
        /** Only validated reports on a product with no active program and no contact e-mail. */
        noVendorContact?: boolean;
        /** Only reports whose researcher asked for a CVE id that staff have not recorded yet. */
        cveRequested?: boolean;
      },
      limit: number,
      offset: number,
    ) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.researcherId !== undefined) {
        params.push(filter.researcherId);
        where.push(`r.researcher_id = $${params.length}`);
      }
      if (filter.vendorId !== undefined) {
        params.push(filter.vendorId);
        where.push(`p.vendor_id = $${params.length}`);
      }
      if (filter.statuses) {
        params.push(filter.statuses);
        where.push(`r.status = any($${params.length}::text[])`);
      }
      if (filter.deadlinePassed) where.push("r.deadline_passed_at is not null and r.status = 'awaiting_fix'");
      if (filter.noVendorContact)
        where.push(
          "r.status = 'validated' and not (p.vendor_id is not null and p.is_active) and p.vendor_contact_email is null",
        );
      if (filter.cveRequested)
        where.push("r.cve_requested_at is not null and r.cve is null and r.status <> 'rejected'");
      const whereSql = where.length > 0 ? `where ${where.join(" and ")}` : "";
      const { rows } = await sql.query<ReportListRow>(
        `${LIST_SELECT} ${whereSql} order by r.created_at desc, r.id limit ${limit} offset ${offset}`,
        params,
      );
      const counted = await sql.query<{ total: number }>(
        `select count(*)::int as total from reports r join products p on p.id = r.product_id ${whereSql}`,
        params,
      );
      return { rows, total: counted.rows[0]?.total ?? 0 };
    },

    async listEvents(reportId: string, tx: SqlRunner = sql): Promise<EventRow[]> {
      const { rows } = await tx.query<EventRow>(
        `select e.id, e.action, e.from_state, e.to_state, e.note, e.actor_user_id, u.name as actor_name,
           e.created_at
         from report_events e left join users u on u.id = e.actor_user_id
         where e.report_id = $1 order by e.created_at, e.id`,
        [reportId],
      );
      return rows;
    },

    async listComments(
      reportId: string,
      visibilities: readonly string[],
      tx: SqlRunner = sql,
    ): Promise<CommentRow[]> {
      const { rows } = await tx.query<CommentRow>(
        `select c.id, c.body, c.visibility, c.author_user_id, u.name as author_name, c.created_at
         from report_comments c left join users u on u.id = c.author_user_id
         where c.report_id = $1 and c.visibility = any($2::text[]) order by c.created_at, c.id`,
        [reportId, visibilities],
      );
      return rows;
    },

    async insertComment(
      comment: { reportId: string; authorUserId: number | null; body: string; visibility: string },
      tx: SqlRunner = sql,
    ) {
      const { rows } = await tx.query<{ id: number }>(
        "insert into report_comments (report_id, author_user_id, body, visibility) values ($1, $2, $3, $4) returning id",
        [comment.reportId, comment.authorUserId, comment.body, comment.visibility],
      );
      return rows[0]!.id;
    },

    async insertEvent(event: NewEvent, tx: SqlRunner = sql) {
      await tx.query(
        `insert into report_events (report_id, actor_user_id, action, from_state, to_state, note)
         values ($1, $2, $3, $4, $5, $6)`,
        [event.reportId, event.actorUserId, event.action, event.fromState, event.toState, event.note],
      );
    },

    /** Moves the report to `status` and sets the given columns; the caller holds the row lock. */
    async updateReport(
      id: string,
      status: string,
      changes: ReportChanges,
      stamps: ReportStamps,
      tx: SqlRunner = sql,
    ) {
      const params: unknown[] = [id, status];
      const sets = ["status = $2", "updated_at = now()"];
      for (const [column, value] of Object.entries(changes)) {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
      if (stamps.validated_at) sets.push("validated_at = now()");
      if (stamps.vendor_notified_at) sets.push("vendor_notified_at = now()");
      if (stamps.fix_deadline_days !== undefined) {
        params.push(stamps.fix_deadline_days);
        sets.push(`fix_deadline_at = now() + make_interval(days => $${params.length}::int)`);
      }
      if (stamps.fixed_at) sets.push("fixed_at = now()");
      if (stamps.published_at) sets.push("published_at = now()");
      await tx.query(`update reports set ${sets.join(", ")} where id = $1`, params);
    },

    async researcherIdOf(userId: number): Promise<number | null> {
      const { rows } = await sql.query<{ id: number }>(
        "select id from researchers where user_id = $1 order by id limit 1",
        [userId],
      );
      return rows[0]?.id ?? null;
    },

    /** The vendor contact that hears of a report on its active program. */
    async vendorContact(vendorId: number): Promise<{ vendor_name: string; contact_email: string } | null> {
      const { rows } = await sql.query<{ vendor_name: string; contact_email: string }>(
        "select vendor_name, contact_email from vendors where id = $1",
        [vendorId],
      );
      return rows[0] ?? null;
    },

    /** Who triages: staff accounts with the second factor on (the staff area requires it). */
    async staffEmails(): Promise<string[]> {
      const { rows } = await sql.query<{ email: string }>(
        "select email from users where is_staff and totp_secret is not null order by id",
      );
      return rows.map((row) => row.email);
    },
  };
}
