import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/**
 * A person who can sign in. Roles are not stored here: a user is a researcher when a researcher
 * profile names them (researchers.user_id) and a vendor when they hold a seat (vendor_members).
 */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** Always stored lower-cased and trimmed; unique. */
    email: text("email").notNull(),
    /** argon2id; null for an account that only signs in by magic link. */
    passwordHash: text("password_hash"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** Staff are created only by the `user:create --staff` command. */
    isStaff: boolean("is_staff").notNull().default(false),
    /** Base32 TOTP secret once a second factor is confirmed. */
    totpSecret: text("totp_secret"),
    /** A secret handed out for enrolment, until a first code confirms it. */
    totpPendingSecret: text("totp_pending_secret"),
    /** The last 30-second step a code was accepted for: a code works once. */
    totpLastStep: integer("totp_last_step"),
    createdAt,
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("users_email_key").on(table.email),
    check("users_email_lower_check", sql`${table.email} = lower(${table.email})`),
  ],
);

/** A vendor organisation (spec §3 "Vendor account"); `public_key` identifies its embed form. */
export const vendors = pgTable(
  "vendors",
  {
    id: serial("id").primaryKey(),
    vendorName: text("vendor_name").notNull(),
    url: text("url"),
    contactEmail: text("contact_email").notNull(),
    contactPerson: text("contact_person").notNull(),
    timezone: text("timezone").notNull().default("UTC"),
    /** ISO 3166-1 alpha-2 code, optional. */
    country: text("country"),
    publicKey: uuid("public_key").notNull().unique().defaultRandom(),
    /** Set when the account fields were first saved by the vendor (`/vdp/create-account`). */
    accountCompletedAt: timestamp("account_completed_at", { withTimezone: true }),
    /** The subscription plan (PRODUCT.md §4): free or premium; changed through the billing provider. */
    plan: text("plan").notNull().default("free"),
    createdAt,
  },
  (table) => [check("vendors_plan_check", sql`${table.plan} in ('free', 'premium')`)],
);

/** A seat: a user's membership of a vendor organisation. */
export const vendorMembers = pgTable(
  "vendor_members",
  {
    vendorId: integer("vendor_id")
      .notNull()
      .references(() => vendors.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("member"),
    createdAt,
  },
  (table) => [
    primaryKey({ columns: [table.vendorId, table.userId] }),
    index("vendor_members_user_idx").on(table.userId),
    check("vendor_members_role_check", sql`${table.role} in ('owner', 'admin', 'member')`),
  ],
);

/** A cookie-mode session. Only the SHA-256 of the cookie value is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt,
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

/**
 * A Bearer credential. Only the SHA-256 of the secret is stored. `login`: the token a token-mode
 * sign-in answers (one per signed-in browser or client, named by its user agent); `api_key`: a named
 * key made on the account page (`pgk_…`, decision 028), limited to its `scopes`. Both expire.
 */
export const personalAccessTokens = pgTable(
  "personal_access_tokens",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind").notNull().default("login"),
    /** An API key's scopes (`read`, `vendor`, `researcher`); empty for a login token. */
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
    createdAt,
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    index("personal_access_tokens_user_idx").on(table.userId),
    check("personal_access_tokens_kind_check", sql`${table.kind} in ('login', 'api_key')`),
  ],
);

/** Single-use links sent by e-mail: magic sign-in, address verification, password reset. */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt,
  },
  (table) => [
    index("one_time_tokens_user_idx").on(table.userId),
    check(
      "one_time_tokens_kind_check",
      sql`${table.kind} in ('magic_link', 'email_verification', 'password_reset')`,
    ),
  ],
);

/** Outgoing e-mail: a queue worked by the mail worker, and the development mailbox. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    template: text("template").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    /** pending → sent | failed; `stored` when no SMTP server is configured. */
    status: text("status").notNull(),
    attempts: smallint("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt,
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("mail_outbox_pending_idx").on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    check("mail_outbox_status_check", sql`${table.status} in ('pending', 'sent', 'failed', 'stored')`),
  ],
);

/** Fixed-window rate-limit counters shared by every instance. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});
