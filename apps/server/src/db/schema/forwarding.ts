import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users, vendors } from "./accounts.ts";
import { watchlists } from "./watchlists.ts";

const createdAt = timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/**
 * Where a vendor forwards its report events (issue 8): an e-mail address (confirmed by a link before
 * it receives anything) or, on premium, a webhook (JSON, Slack or Discord body, HMAC-SHA256 signed).
 * A watchlist's alert webhooks (issue 20) are targets too, owned by the watchlist instead of a vendor:
 * one signing and delivery queue for both.
 */
export const forwardTargets = pgTable(
  "forward_targets",
  {
    id: serial("id").primaryKey(),
    vendorId: integer("vendor_id").references(() => vendors.id, { onDelete: "cascade" }),
    watchlistId: uuid("watchlist_id").references(() => watchlists.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** E-mail targets: the address (lower-cased). */
    email: text("email"),
    /** Webhook targets: the https (or http) URL, checked against private addresses on save and send. */
    url: text("url"),
    /** Webhook body format: json (signed Pressguard event), slack or discord. */
    format: text("format").notNull().default("json"),
    /** The webhook's signing secret (shown once to the vendor, rotatable). */
    secret: text("secret"),
    /** The event types it receives; every type when empty. */
    events: text("events").array().notNull().default(sql`'{}'::text[]`),
    /** pending (e-mail not yet confirmed), active, disabled (by the vendor or after failures). */
    status: text("status").notNull().default("pending"),
    confirmationTokenHash: text("confirmation_token_hash").unique(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt,
  },
  (table) => [
    index("forward_targets_vendor_idx").on(table.vendorId),
    index("forward_targets_watchlist_idx").on(table.watchlistId),
    check(
      "forward_targets_owner_check",
      sql`(${table.vendorId} is null) <> (${table.watchlistId} is null) and (${table.watchlistId} is null or ${table.kind} = 'webhook')`,
    ),
    check("forward_targets_kind_check", sql`${table.kind} in ('email', 'webhook')`),
    check("forward_targets_format_check", sql`${table.format} in ('json', 'slack', 'discord')`),
    check("forward_targets_status_check", sql`${table.status} in ('pending', 'active', 'disabled')`),
    check(
      "forward_targets_kind_fields_check",
      sql`(${table.kind} = 'email' and ${table.email} is not null) or (${table.kind} = 'webhook' and ${table.url} is not null and ${table.secret} is not null)`,
    ),
  ],
);

/**
 * A report event for one vendor, written in the same transaction as the change it tells of (the
 * outbox pattern), with the payload limited to what the vendor may read. `test` events come from the
 * "send test event" button.
 */
export const forwardEvents = pgTable(
  "forward_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** A stable id receivers can de-duplicate on (sent as the event id and in a header). */
    uuid: uuid("uuid").notNull().unique().defaultRandom(),
    /** The vendor of a report event; null for a watchlist's alert (`watchlistId`). */
    vendorId: integer("vendor_id").references(() => vendors.id, { onDelete: "cascade" }),
    watchlistId: uuid("watchlist_id").references(() => watchlists.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    reportId: uuid("report_id"),
    payload: jsonb("payload").notNull(),
    createdAt,
  },
  (table) => [index("forward_events_vendor_idx").on(table.vendorId, table.createdAt)],
);

/**
 * One event to one target: the durable job (FOR UPDATE SKIP LOCKED, a lease so a crashed worker's
 * job is taken up again), retried with exponential backoff for 24 hours.
 */
export const forwardDeliveries = pgTable(
  "forward_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    targetId: integer("target_id")
      .notNull()
      .references(() => forwardTargets.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => forwardEvents.id, { onDelete: "cascade" }),
    /** pending → succeeded | failed (gave up after 24 h, or the target was disabled). */
    status: text("status").notNull().default("pending"),
    attempts: smallint("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while a worker holds the job; an expired lease makes it due again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** A manual redelivery by the vendor (not counted towards the automatic schedule). */
    manual: boolean("manual").notNull().default(false),
    createdAt,
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("forward_deliveries_due_idx").on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index("forward_deliveries_target_idx").on(table.targetId, table.createdAt),
    check("forward_deliveries_status_check", sql`${table.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/** The delivery log: one row per attempt (time, status code, latency, response excerpt or error). */
export const forwardDeliveryAttempts = pgTable(
  "forward_delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => forwardDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    /** Null when no response came (refused, timed out, blocked address). */
    statusCode: smallint("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    succeeded: boolean("succeeded").notNull(),
    /** The first 1,000 characters of the response body, or the error. */
    responseExcerpt: text("response_excerpt"),
  },
  (table) => [index("forward_delivery_attempts_delivery_idx").on(table.deliveryId, table.attemptedAt)],
);
