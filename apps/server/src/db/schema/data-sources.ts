import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { vulnerabilities } from "./public-database.ts";

/** The counts of one sync run (decision 035). */
export interface DataSourceCounts {
  new: number;
  changed: number;
  unchanged: number;
  withdrawn: number;
  rejected: number;
}

/**
 * One row per upstream data source (issue 34, decision 035): what the last runs did, the validators
 * of its conditional requests, the back-off after failures and the claim that makes one instance of
 * many run it.
 */
export const dataSources = pgTable("data_sources", {
  /** The source's name in the registry: `wordfence`, `kev`, `epss`, `wporg`. */
  source: text("source").primaryKey(),
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  /** The last failure in words (null after a success); never holds a key. */
  lastError: text("last_error"),
  /** The counts of the last successful run that fetched a document. */
  lastCounts: jsonb("last_counts").$type<DataSourceCounts>(),
  /** Validators of the last complete document, sent back as If-None-Match / If-Modified-Since. */
  etag: text("etag"),
  lastModified: text("last_modified"),
  /** After failures: not tried again by the schedule before this (exponential back-off). */
  nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  /** The run under way: which instance claimed the source, and until when the claim holds. */
  claimedUntil: timestamp("claimed_until", { withTimezone: true }),
  claimedBy: text("claimed_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Records a source that writes onto records by CVE (KEV, EPSS) has not applied its document to yet:
 * written with a CVE after its last complete document (migration 0034's trigger, and the bulk writer for
 * the sources that already hold validators). While any is listed, the source's next request is
 * unconditional, so a record that arrives by the feed is annotated although the catalog did not change.
 */
export const cveSignalChecks = pgTable(
  "cve_signal_checks",
  {
    source: text("source").notNull(),
    vulnerabilityId: uuid("vulnerability_id")
      .notNull()
      .references(() => vulnerabilities.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.source, table.vulnerabilityId] })],
);
