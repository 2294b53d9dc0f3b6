import type { ReportState } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

export interface ReportRow {
  id: string;
  status: ReportState;
  title: string;
  product_id: number;
  platform: string;
  product_kind: "plugin" | "theme" | "core";
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
  possible_duplicate_of: string | null;
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
    r.cvss_score, r.severity, r.cve, r.possible_duplicate_of::text, r.vulnerability_id::text,
    v.slug as vulnerability_slug, r.vendor_notified_at, r.fix_deadline_at, r.deadline_near_notified_at,
    r.deadline_passed_at, r.fixed_at, r.validated_at,
    r.published_at, r.created_at, r.updated_at
  from reports r
  join products p on p.id = r.product_id
  join platforms pl on pl.id = p.platform_id
  left join researchers rs on rs.id = r.researcher_id
  left join users ru on ru.id = rs.user_id
  left join vulnerabilities v on v.id = r.vulnerability_id`;

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
  fix_deadline_at: Date | string | null;
  deadline_passed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const LIST_SELECT = `
  select r.id, r.status, r.title, pl.slug as platform, p.kind as product_kind, p.slug as product_slug,
    p.name as product_name, r.type_code, r.severity, r.possible_duplicate_of::text, r.fix_deadline_at,
    r.deadline_passed_at, r.created_at, r.updated_at
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

export interface NewReport {
  productId: number;
  researcherId: number;
  submittedByUserId: number;
  reporterEmail: string | null;
  title: string;
  affectedVersionPrefix: string;
  affectedVersion: string;
  typeCode: number;
  owaspCode: number;
  requiredPrivilege: number;
  description: string;
  stepsToReproduce: string;
  proofOfConcept: string;
  suggestedFix: string | null;
  reportedCvssVector: string | null;
  possibleDuplicateOf: string | null;
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
}>;

/** Timestamps a transition sets to now(), or (the deadline) to now() plus days. */
export type ReportStamps = Partial<{
  validated_at: true;
  vendor_notified_at: true;
  fix_deadline_days: number;
  fixed_at: true;
  published_at: true;
}>;

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

    async findUserByEmail(email: string, tx: SqlRunner = sql) {
      const { rows } = await tx.query<{ id: number; name: string }>(
        "select id, name from users where email = $1",
        [email],
      );
      return rows[0] ?? null;
    },

    /** A magic-link-only account (no password) for a signed-out reporter; null when the e-mail is taken. */
    async createPasswordlessUser(name: string, email: string, tx: SqlRunner = sql): Promise<number | null> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into users (name, email, password_hash) values ($1, $2, null)
         on conflict (email) do nothing returning id`,
        [name, email],
      );
      return rows[0]?.id ?? null;
    },

    /** The user's researcher profile, created when missing. */
    async ensureResearcher(userId: number, displayName: string, tx: SqlRunner = sql): Promise<number> {
      // Two first reports of one account at once must not make it two profiles (no unique key on user_id).
      await tx.query("select pg_advisory_xact_lock(7007, $1::int)", [userId]);
      const found = await tx.query<{ id: number }>(
        "select id from researchers where user_id = $1 order by id limit 1",
        [userId],
      );
      if (found.rows[0]) return found.rows[0].id;
      const { rows } = await tx.query<{ id: number }>(
        "insert into researchers (display_name, user_id) values ($1, $2) returning id",
        [displayName, userId],
      );
      return rows[0]!.id;
    },

    async vendorContact(vendorId: number): Promise<{ vendor_name: string; contact_email: string } | null> {
      const { rows } = await sql.query<{ vendor_name: string; contact_email: string }>(
        "select vendor_name, contact_email from vendors where id = $1",
        [vendorId],
      );
      return rows[0] ?? null;
    },

    /** The vendor behind an embed's public key. */
    async embedVendor(publicKey: string): Promise<{ id: number; vendor_name: string } | null> {
      const { rows } = await sql.query<{ id: number; vendor_name: string }>(
        "select id, vendor_name from vendors where public_key = $1",
        [publicKey.toLowerCase()],
      );
      return rows[0] ?? null;
    },

    /** Whether kind + slug (any case, as the submission finds it) is an active program of the vendor. */
    async isActiveProgramOf(vendorId: number, kind: string, slug: string): Promise<boolean> {
      const { rows } = await sql.query(
        `select 1 from products p join platforms pl on pl.id = p.platform_id
         where pl.slug = 'wordpress' and p.vendor_id = $1 and p.is_active and p.kind = $2
           and lower(p.slug) = lower($3) limit 1`,
        [vendorId, kind, slug],
      );
      return rows.length > 0;
    },

    /** Who triages: staff accounts with the second factor on (the staff area requires it). */
    async staffEmails(): Promise<string[]> {
      const { rows } = await sql.query<{ email: string }>(
        "select email from users where is_staff and totp_secret is not null order by id",
      );
      return rows.map((row) => row.email);
    },

    async researcherIdOf(userId: number): Promise<number | null> {
      const { rows } = await sql.query<{ id: number }>(
        "select id from researchers where user_id = $1 order by id limit 1",
        [userId],
      );
      return rows[0]?.id ?? null;
    },

    /**
     * The product for kind + slug on the WordPress platform: the exact slug, else one differing only
     * in case (imported premium slugs keep their capitals); an unknown one becomes a lobby product
     * with a lower-case slug.
     */
    async findOrCreateProduct(
      product: { kind: string; slug: string; name: string },
      tx: SqlRunner = sql,
    ): Promise<{ id: number; created: boolean }> {
      const find = async (slug: string) => {
        // The exact slug uses the unique index; only an unknown one pays for the case-insensitive scan.
        for (const match of ["p.slug = $2", "lower(p.slug) = lower($2)"]) {
          const { rows } = await tx.query<{ id: number }>(
            `select p.id from products p join platforms pl on pl.id = p.platform_id
             where pl.slug = 'wordpress' and p.kind = $1 and ${match} order by p.id limit 1`,
            [product.kind, slug],
          );
          if (rows[0]) return rows[0].id;
        }
        return null;
      };
      const existing = await find(product.slug);
      if (existing !== null) return { id: existing, created: false };
      const inserted = await tx.query<{ id: number }>(
        `insert into products (platform_id, kind, slug, name, is_lobby_product)
         select id, $1, lower($2), $3, true from platforms where slug = 'wordpress'
         on conflict (platform_id, kind, slug) do nothing returning id`,
        [product.kind, product.slug, product.name],
      );
      if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
      // Created by a concurrent submission.
      const raced = await find(product.slug);
      if (raced === null) throw new Error("the wordpress platform row is missing");
      return { id: raced, created: false };
    },

    /** The oldest open or published report on the product with the same type: a likely duplicate. */
    async findPossibleDuplicate(
      productId: number,
      typeCode: number,
      states: readonly string[],
      tx: SqlRunner = sql,
    ): Promise<string | null> {
      const { rows } = await tx.query<{ id: string }>(
        `select id::text from reports where product_id = $1 and type_code = $2 and status = any($3::text[])
         order by created_at, id limit 1`,
        [productId, typeCode, states],
      );
      return rows[0]?.id ?? null;
    },

    async insertReport(report: NewReport, tx: SqlRunner = sql): Promise<string> {
      const { rows } = await tx.query<{ id: string }>(
        `insert into reports (product_id, researcher_id, submitted_by_user_id, reporter_email, title,
           affected_version_prefix, affected_version, type_code, owasp_code, required_privilege, description,
           steps_to_reproduce, proof_of_concept, suggested_fix, reported_cvss_vector, possible_duplicate_of)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) returning id::text`,
        [
          report.productId,
          report.researcherId,
          report.submittedByUserId,
          report.reporterEmail,
          report.title,
          report.affectedVersionPrefix,
          report.affectedVersion,
          report.typeCode,
          report.owaspCode,
          report.requiredPrivilege,
          report.description,
          report.stepsToReproduce,
          report.proofOfConcept,
          report.suggestedFix,
          report.reportedCvssVector,
          report.possibleDuplicateOf,
        ],
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

    /** Creates or updates the public record of a published report, its range and its credit. */
    async writeVulnerability(
      record: {
        id: string;
        slug: string;
        productId: number;
        title: string;
        description: string;
        typeLabel: string | null;
        typeCode: number | null;
        owaspCode: number | null;
        requiredPrivilege: number | null;
        cvssVector: string | null;
        cvssScore: number | null;
        severity: string | null;
        cve: string | null;
        fixedIn: string | null;
        range: {
          prefix: string;
          version: string;
          introduced: string | null;
          fixed: string | null;
          lastAffected: string | null;
        };
        researcherId: number | null;
      },
      tx: SqlRunner = sql,
    ) {
      await tx.query(
        `insert into vulnerabilities (id, slug, product_id, title, description, type_label, type_code,
           owasp_code, required_privilege, cvss_vector, cvss_score, cvss_version, severity, cve, fixed_in,
           patched, published_at, source)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, case when $10::text is null then null else '3.1' end,
           $12, $13, $14, $14::text is not null, now(), 'pressguard')
         on conflict (id) do update set title = excluded.title, description = excluded.description,
           type_label = excluded.type_label, type_code = excluded.type_code, owasp_code = excluded.owasp_code,
           required_privilege = excluded.required_privilege, cvss_vector = excluded.cvss_vector,
           cvss_score = excluded.cvss_score, cvss_version = excluded.cvss_version, severity = excluded.severity,
           cve = excluded.cve, fixed_in = excluded.fixed_in, patched = excluded.patched, updated_at = now()`,
        [
          record.id,
          record.slug,
          record.productId,
          record.title,
          record.description,
          record.typeLabel,
          record.typeCode,
          record.owaspCode,
          record.requiredPrivilege,
          record.cvssVector,
          record.cvssScore,
          record.severity,
          record.cve,
          record.fixedIn,
        ],
      );
      await tx.query("delete from affected_ranges where vulnerability_id = $1", [record.id]);
      await tx.query(
        `insert into affected_ranges (vulnerability_id, product_id, position, introduced, fixed, last_affected,
           prefix, version, fixed_in)
         values ($1, $2, 0, $3, $4, $5, $6, $7, $8)`,
        [
          record.id,
          record.productId,
          record.range.introduced,
          record.range.fixed,
          record.range.lastAffected,
          record.range.prefix,
          record.range.version,
          record.fixedIn,
        ],
      );
      if (record.researcherId !== null) {
        await tx.query(
          `insert into credits (vulnerability_id, researcher_id, position, role) values ($1, $2, 0, 'finder')
           on conflict (vulnerability_id, researcher_id) do nothing`,
          [record.id, record.researcherId],
        );
      }
    },
  };
}

export interface PinRow {
  pin_hash: string;
  contact_email: string;
  failed_attempts: number;
  /** Seconds until the lock ends; null or ≤ 0 when not locked. */
  locked_seconds: number | null;
  locked_until: Date | string | null;
}

/** The PIN of a report (PRODUCT.md §2), and the deadline job's reads and flags. */
export function createPinAndDeadlineQueries(sql: SqlRunner) {
  return {
    /** A new PIN for the report (replacing an older one, its tries and lock). */
    async savePin(reportId: string, pinHash: string, contactEmail: string, tx: SqlRunner = sql) {
      await tx.query(
        `insert into report_pins (report_id, pin_hash, contact_email) values ($1, $2, $3)
         on conflict (report_id) do update set pin_hash = excluded.pin_hash,
           contact_email = excluded.contact_email, failed_attempts = 0, locked_until = null, created_at = now()`,
        [reportId, pinHash, contactEmail],
      );
    },

    /** The PIN row, locked for the caller's transaction so that concurrent tries count one by one. */
    async lockPin(reportId: string, tx: SqlRunner): Promise<PinRow | null> {
      const { rows } = await tx.query<PinRow>(
        `select pin_hash, contact_email, failed_attempts, locked_until,
           extract(epoch from locked_until - now())::float8 as locked_seconds
         from report_pins where report_id = $1 for update`,
        [reportId],
      );
      return rows[0] ?? null;
    },

    /** A wrong PIN: counts it; the `maxAttempts`-th locks the PIN for `lockSeconds` and restarts the count. */
    async recordWrongPin(
      reportId: string,
      maxAttempts: number,
      lockSeconds: number,
      tx: SqlRunner,
    ): Promise<{ locked: boolean; attemptsLeft: number }> {
      const { rows } = await tx.query<{ failed_attempts: number; locked: boolean }>(
        `update report_pins set
           failed_attempts = case when failed_attempts + 1 >= $2 then 0 else failed_attempts + 1 end,
           locked_until = case when failed_attempts + 1 >= $2 then now() + make_interval(secs => $3::int)
             else locked_until end
         where report_id = $1
         returning failed_attempts, (locked_until is not null and locked_until > now()) as locked`,
        [reportId, maxAttempts, lockSeconds],
      );
      const row = rows[0];
      return { locked: row?.locked ?? false, attemptsLeft: maxAttempts - (row?.failed_attempts ?? 0) };
    },

    async clearPinFailures(reportId: string, tx: SqlRunner) {
      await tx.query("update report_pins set failed_attempts = 0, locked_until = null where report_id = $1", [
        reportId,
      ]);
    },

    /**
     * Flags, once, every report awaiting a fix whose deadline is at or before `now`; answers their ids.
     * The update is the claim: two instances running the job never flag one report twice.
     */
    async flagPassedDeadlines(now: Date, tx: SqlRunner = sql): Promise<string[]> {
      const { rows } = await tx.query<{ id: string }>(
        `update reports set deadline_passed_at = $1
         where status = 'awaiting_fix' and fix_deadline_at <= $1 and deadline_passed_at is null
         returning id::text`,
        [now],
      );
      return rows.map((row) => row.id);
    },

    /** Claims, once, every report awaiting a fix whose deadline is within `days` of `now` (not yet passed). */
    async claimNearDeadlines(now: Date, days: number, tx: SqlRunner = sql): Promise<string[]> {
      const { rows } = await tx.query<{ id: string }>(
        `update reports set deadline_near_notified_at = $1
         where status = 'awaiting_fix' and fix_deadline_at > $1
           and fix_deadline_at <= $1::timestamptz + make_interval(days => $2::int)
           and deadline_near_notified_at is null and deadline_passed_at is null
         returning id::text`,
        [now, days],
      );
      return rows.map((row) => row.id);
    },
  };
}
