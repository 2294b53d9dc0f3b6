import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { vulnerabilities } from "./public-database.ts";

/**
 * Watchlists (issue 20, decision 031): what a site runs, kept by a signed-in user of any role, many
 * per account, each entry with its installed version.
 */
export const watchlists = pgTable(
  "watchlists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /**
     * `immediate`: an e-mail per alert run; `daily`: one digest a day; `off`: none (the page and the
     * API still show the exposures).
     */
    alertMode: text("alert_mode").notNull().default("immediate"),
    /** When this watchlist's alerts were last sent as a daily digest. */
    lastDigestAt: timestamp("last_digest_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("watchlists_user_idx").on(table.userId, table.name),
    check("watchlists_alert_mode_check", sql`${table.alertMode} in ('immediate', 'daily', 'off')`),
  ],
);

/**
 * One watched product of a watchlist by kind and slug (in lower case, as the batch check matches
 * them), known to the database or not yet: a plugin the database learns of later is then matched.
 */
export const watchlistEntries = pgTable(
  "watchlist_entries",
  {
    watchlistId: uuid("watchlist_id")
      .notNull()
      .references(() => watchlists.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    version: text("version").notNull(),
    /** The order of the uploaded inventory. */
    position: integer("position").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.watchlistId, table.kind, table.slug] }),
    /** Which watchlists watch a product: the alerts of a publication (issue 20). */
    index("watchlist_entries_product_idx").on(table.kind, table.slug),
  ],
);

/**
 * One alert: a record that newly affects, or materially changed for, an entry's installed version.
 * Unique per watchlist, record and fingerprint, so a run that fails after writing it never repeats
 * it, and a later material change alerts again.
 */
export const watchAlerts = pgTable(
  "watch_alerts",
  {
    id: serial("id").primaryKey(),
    watchlistId: uuid("watchlist_id")
      .notNull()
      .references(() => watchlists.id, { onDelete: "cascade" }),
    vulnerabilityId: uuid("vulnerability_id")
      .notNull()
      .references(() => vulnerabilities.id, { onDelete: "cascade" }),
    fingerprint: text("fingerprint").notNull(),
    /** `new`: first published affecting it; `changed`: its severity, fix or ranges changed. */
    change: text("change").notNull(),
    /** The entry it concerns and what to do. */
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    version: text("version").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the e-mail carrying it was queued (null: not yet, or the watchlist's alerts are off). */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("watch_alerts_once_key").on(table.watchlistId, table.vulnerabilityId, table.fingerprint),
    check("watch_alerts_change_check", sql`${table.change} in ('new', 'changed')`),
  ],
);

/**
 * Each record's state for the watchlist alerts (issue 20, decision 031), beside the record rather
 * than in it: the alert job rewrites these narrow rows, where rewriting the wide records doubled the
 * vulnerabilities table (160 to 391 MB at 250,000 records). `pending`: written since the job's last
 * look with what may change whom it concerns (inserted; severity, fix or ranges changed);
 * `fingerprint`: the severity, fix and ranges last alerted on, which tells a material change from a
 * cosmetic one.
 */
export const vulnerabilityAlertStates = pgTable(
  "vulnerability_alert_states",
  {
    vulnerabilityId: uuid("vulnerability_id")
      .primaryKey()
      .references(() => vulnerabilities.id, { onDelete: "cascade" }),
    pending: boolean("pending").notNull().default(true),
    fingerprint: text("fingerprint"),
  },
  (table) => [
    /** The alert job's work: the few records written since its last run. */
    index("vulnerability_alert_states_pending_idx").on(table.vulnerabilityId).where(sql`${table.pending}`),
  ],
);
