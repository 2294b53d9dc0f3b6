import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users, vendors } from "./accounts.ts";
import { products, researchers, vulnerabilities } from "./public-database.ts";

/**
 * A vendor's claim on a lobby product whose URL domain did not match the vendor's: it waits for
 * staff (decision 006). One row per product and vendor; a rejected claim may be asked again.
 */
export const productClaims = pgTable(
  "product_claims",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id")
      .notNull()
      .references(() => vendors.id, { onDelete: "cascade" }),
    requestedBy: integer("requested_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status").notNull().default("pending"),
    /** Why staff rejected it, shown to the vendor. */
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    uniqueIndex("product_claims_product_vendor_key").on(table.productId, table.vendorId),
    index("product_claims_status_idx").on(table.status, table.createdAt),
    check("product_claims_status_check", sql`${table.status} in ('pending', 'approved', 'rejected')`),
  ],
);

/**
 * A vulnerability report on a product. This issue creates the lifecycle columns the program counters
 * read (decision 006); the disclosure workflow adds the report's content, timeline and people.
 */
export const reports = pgTable(
  "reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    title: text("title").notNull(),
    status: text("status").notNull().default("submitted"),
    /** The researcher who reported it (issue 7); null only for rows made before reports had one. */
    researcherId: integer("researcher_id").references(() => researchers.id),
    /** The account that submitted it (signed in, or created/linked from the e-mail of a signed-out reporter). */
    submittedByUserId: integer("submitted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The e-mail given by a signed-out reporter. */
    reporterEmail: text("reporter_email"),
    /** The form of PRODUCT.md §3, as submitted. */
    affectedVersionPrefix: text("affected_version_prefix"),
    affectedVersion: text("affected_version"),
    typeCode: smallint("type_code"),
    owaspCode: smallint("owasp_code"),
    requiredPrivilege: smallint("required_privilege"),
    description: text("description"),
    stepsToReproduce: text("steps_to_reproduce"),
    proofOfConcept: text("proof_of_concept"),
    suggestedFix: text("suggested_fix"),
    /** The reporter's CVSS 3.1 vector, if any; staff set the authoritative one when validating. */
    reportedCvssVector: text("reported_cvss_vector"),
    /** Set by staff: why the report was rejected. */
    rejectionReason: text("rejection_reason"),
    /** Set by staff when validating (the classification above is updated too). */
    fixedVersion: text("fixed_version"),
    cvssVector: text("cvss_vector"),
    cvssScore: numeric("cvss_score", { precision: 3, scale: 1, mode: "number" }),
    severity: text("severity"),
    cve: text("cve"),
    validatedAt: timestamp("validated_at", { withTimezone: true }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** The public record a publication created or updated. */
    vulnerabilityId: uuid("vulnerability_id").references(() => vulnerabilities.id, { onDelete: "set null" }),
    /** An open or published report on the same product with the same type, flagged to staff. */
    possibleDuplicateOf: uuid("possible_duplicate_of"),
    /** A published record of the same product, type and overlapping versions, flagged to staff (issue 19). */
    possibleDuplicateOfVulnerabilityId: uuid("possible_duplicate_of_vulnerability_id").references(
      () => vulnerabilities.id,
      { onDelete: "set null" },
    ),
    /** Set when staff reject the report as a duplicate: the original, a published record or a report. */
    duplicateOfVulnerabilityId: uuid("duplicate_of_vulnerability_id").references(() => vulnerabilities.id, {
      onDelete: "set null",
    }),
    duplicateOfReportId: uuid("duplicate_of_report_id").references((): AnyPgColumn => reports.id, {
      onDelete: "set null",
    }),
    /** The researcher asked staff to reserve a CVE id for the report (issue 19); `cve` holds it once reserved. */
    cveRequestedAt: timestamp("cve_requested_at", { withTimezone: true }),
    /** When the vendor was notified: the fix deadline runs from here. */
    vendorNotifiedAt: timestamp("vendor_notified_at", { withTimezone: true }),
    fixDeadlineAt: timestamp("fix_deadline_at", { withTimezone: true }),
    fixedAt: timestamp("fixed_at", { withTimezone: true }),
    /** The patch (a unified diff) a PIN contact may attach to their fix. */
    fixDiff: text("fix_diff"),
    /** Where the fix can be read: a commit, pull request or release the vendor or PIN contact links. */
    fixUrl: text("fix_url"),
    /** The deadline job's first reminder went out (30 days before a long deadline; once; issue 19). */
    deadlineReminderNotifiedAt: timestamp("deadline_reminder_notified_at", { withTimezone: true }),
    /** The deadline job's "deadline near" e-mail went out (7 days before; once). */
    deadlineNearNotifiedAt: timestamp("deadline_near_notified_at", { withTimezone: true }),
    /** The deadline job flagged the report to staff: its fix deadline passed while awaiting a fix (once). */
    deadlinePassedAt: timestamp("deadline_passed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("reports_product_status_idx").on(table.productId, table.status),
    index("reports_researcher_status_idx").on(table.researcherId, table.status, table.createdAt),
    index("reports_status_created_idx").on(table.status, table.createdAt),
    index("reports_status_deadline_idx").on(table.status, table.fixDeadlineAt),
    check(
      "reports_rejection_reason_check",
      sql`${table.rejectionReason} in ('duplicate', 'out_of_scope', 'invalid', 'not_reproducible', 'informative')`,
    ),
    check("reports_affected_version_prefix_check", sql`${table.affectedVersionPrefix} in ('<=', '<', '')`),
    // The states of REPORT_STATES (packages/domain, reports/lifecycle.ts), as the migration wrote them.
    check(
      "reports_status_check",
      sql`${table.status} in ('submitted', 'in_review', 'rejected', 'validated', 'awaiting_fix', 'fix_pending', 'fixed', 'published')`,
    ),
  ],
);

/**
 * Every change of a product's vendor contact e-mail by staff (issue 19): the audit trail of who
 * pointed the disclosure of a product without a program at which address.
 */
export const productContactChanges = pgTable(
  "product_contact_changes",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    email: text("email"),
    previousEmail: text("previous_email"),
    changedBy: integer("changed_by").references(() => users.id, { onDelete: "set null" }),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_contact_changes_product_idx").on(table.productId, table.changedAt)],
);

/**
 * A report the vendor (or staff) marked actively exploited (issue 20, CRA Article 14): from `awareAt`
 * run the three clocks — early warning within 24 hours, vulnerability notification within 72 hours,
 * final report within 14 days after the fix is available (the report's `fixed_at`). Each `…SubmittedAt`
 * records when the vendor confirmed sending that step to the single reporting platform.
 */
export const exploitationNotices = pgTable("exploitation_notices", {
  reportId: uuid("report_id")
    .primaryKey()
    .references(() => reports.id, { onDelete: "cascade" }),
  awareAt: timestamp("aware_at", { withTimezone: true }).notNull(),
  markedBy: integer("marked_by").references(() => users.id, { onDelete: "set null" }),
  markedAt: timestamp("marked_at", { withTimezone: true }).notNull().defaultNow(),
  earlyWarningSubmittedAt: timestamp("early_warning_submitted_at", { withTimezone: true }),
  notificationSubmittedAt: timestamp("notification_submitted_at", { withTimezone: true }),
  finalReportSubmittedAt: timestamp("final_report_submitted_at", { withTimezone: true }),
  /** The steps whose reminder e-mail went out (`early_warning`, `notification`, `final_report`): once each. */
  remindersSent: text("reminders_sent").array().notNull().default(sql`'{}'::text[]`),
});

/**
 * A vendor's notice to the users of a product (CRA Article 14(8)): a message about a vulnerability and
 * the measures to take, sent to the product's watchers through the watchlist alerts (issue 20).
 */
export const productUserNotices = pgTable(
  "product_user_notices",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    reportId: uuid("report_id").references(() => reports.id, { onDelete: "set null" }),
    message: text("message").notNull(),
    sentBy: integer("sent_by").references(() => users.id, { onDelete: "set null" }),
    /** How many watchlist owners it was sent to. */
    recipients: integer("recipients").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_user_notices_product_idx").on(table.productId, table.createdAt)],
);
