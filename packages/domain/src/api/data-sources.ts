import { z } from "zod";

/** The staff's view of the upstream data sources (issue 34, decision 035). */

export const DataSourceCounts = z
  .object({
    new: z.number().int().describe("Records the source brought that were not here."),
    changed: z.number().int().describe("Records whose content changed (not only their upstream date)."),
    unchanged: z.number().int(),
    withdrawn: z.number().int().describe("Records that left the source: kept, shown as withdrawn."),
    rejected: z.number().int().describe("Entries skipped as invalid, each with its reason in the log."),
  })
  .meta({ id: "DataSourceCounts" });
export type DataSourceCounts = z.infer<typeof DataSourceCounts>;

export const DataSourceStatus = z
  .object({
    source: z.string().describe("The source's name: wordfence, kev, epss, wporg."),
    label: z.string(),
    configured: z.boolean().describe("Whether its environment variables switch it on."),
    syncing: z.boolean().describe("Whether a run is under way (on any instance)."),
    last_success_at: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    next_attempt_at: z
      .string()
      .nullable()
      .describe("After failures: the schedule does not try again before this (back-off)."),
    last_counts: DataSourceCounts.nullable().describe("The counts of the last run that read a document."),
    last_error: z.string().nullable().describe("The last failure in words; null after a success."),
    held: z
      .object({ count: z.number().int(), what: z.string() })
      .describe("What the database holds from the source now, e.g. 42,489 records from the feed."),
  })
  .meta({ id: "DataSource" });
export type DataSourceStatus = z.infer<typeof DataSourceStatus>;

export const DataSourceList = z.object({ data: z.array(DataSourceStatus) }).meta({ id: "DataSourceList" });
export type DataSourceList = z.infer<typeof DataSourceList>;

export const DataSourceSyncResult = z
  .object({
    source: z.string(),
    outcome: z
      .enum(["synced", "not_modified", "failed"])
      .describe("not_modified: the source answered 304, nothing was written."),
    counts: DataSourceCounts.nullable(),
    error: z.string().nullable(),
    status: DataSourceStatus,
  })
  .meta({ id: "DataSourceSyncResult" });
export type DataSourceSyncResult = z.infer<typeof DataSourceSyncResult>;
