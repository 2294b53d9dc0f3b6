import { sql } from "drizzle-orm";
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { reports } from "./programs.ts";

/**
 * The timeline of a report (PRODUCT.md §2): one row per transition — who, when, from, to, note —
 * written in the same transaction as the state change. The first row is the submission itself.
 */
export const reportEvents = pgTable(
  "report_events",
  {
    id: serial("id").primaryKey(),
    reportId: uuid("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    /** Null when nobody signed in acted (a signed-out submission, a PIN contact). */
    actorUserId: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** `submit` or a lifecycle action of the domain's TRANSITIONS. */
    action: text("action").notNull(),
    fromState: text("from_state"),
    toState: text("to_state").notNull(),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("report_events_report_idx").on(table.reportId, table.createdAt, table.id)],
);

/** A comment on a report: private to staff, or shared with the vendor and the researcher. */
export const reportComments = pgTable(
  "report_comments",
  {
    id: serial("id").primaryKey(),
    reportId: uuid("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    authorUserId: integer("author_user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    visibility: text("visibility").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("report_comments_report_idx").on(table.reportId, table.createdAt, table.id),
    check("report_comments_visibility_check", sql`${table.visibility} in ('staff', 'vendor_researcher')`),
  ],
);

/**
 * ALTCHA solutions already used: a solved challenge is accepted once. Rows live until the
 * challenge itself expires, after which it would be refused anyway.
 */
export const captchaSolutions = pgTable(
  "captcha_solutions",
  {
    signature: text("signature").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("captcha_solutions_expires_idx").on(table.expiresAt)],
);

/**
 * The PIN of a report sent to the contact e-mail of a product with no active program (PRODUCT.md §2).
 * Only the PIN's Argon2 hash is kept. Five wrong tries lock it for 15 minutes.
 */
export const reportPins = pgTable("report_pins", {
  reportId: uuid("report_id")
    .primaryKey()
    .references(() => reports.id, { onDelete: "cascade" }),
  pinHash: text("pin_hash").notNull(),
  /** Where the notice and the PIN went: the product's vendor_contact_email at notification. */
  contactEmail: text("contact_email").notNull(),
  /** Wrong tries since the last lock (or the last success). */
  failedAttempts: smallint("failed_attempts").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A proof-of-concept file of a report (issue 7): at most 5 per report, 20 MB each. The bytes live in
 * the store every instance shares (decision 022), named by `storage`; the name is only for the
 * download.
 */
export const reportAttachments = pgTable(
  "report_attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reportId: uuid("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    /** The uploaded file's name, cleaned; used in Content-Disposition only. */
    filename: text("filename").notNull(),
    /** As the uploader declared it; never used to serve the file (always application/octet-stream). */
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    /** `proof`: the reporter's proof of concept; `fix`: the vendor's or PIN contact's fix (a zip). */
    kind: text("kind").notNull().default("proof"),
    uploadedByUserId: integer("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * Where the bytes are: `database` (report_attachment_chunks), `s3` (the configured bucket), or
     * `disk` (ATTACHMENTS_DIR/{report id}/{id} of an installation from before decision 022, until the
     * start moves them into the configured store).
     */
    storage: text("storage").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("report_attachments_report_idx").on(table.reportId, table.createdAt),
    check("report_attachments_kind_check", sql`${table.kind} in ('proof', 'fix')`),
    check("report_attachments_storage_check", sql`${table.storage} in ('database', 's3', 'disk')`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * The bytes of an attachment kept in the database (decision 022): ATTACHMENT_CHUNK_BYTES each, `seq`
 * from 0, written in the transaction that stores the attachment's row, read back one at a time.
 */
export const reportAttachmentChunks = pgTable(
  "report_attachment_chunks",
  {
    attachmentId: uuid("attachment_id")
      .notNull()
      .references(() => reportAttachments.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (table) => [primaryKey({ columns: [table.attachmentId, table.seq] })],
);

/**
 * An object the S3 store is putting into the bucket for an attachment whose row is not committed yet
 * (decision 022): recorded before the put, deleted in the row's transaction. A mark older than the
 * sweep's grace is an upload whose instance was killed or whose commit failed: the sweep deletes the
 * object, and the mark with it. So no bucket listing (s3:ListBucket) is ever needed.
 */
export const attachmentPendingObjects = pgTable("attachment_pending_objects", {
  objectKey: text("object_key").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
