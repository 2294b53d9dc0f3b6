import type { Database } from "../../db/client.ts";
import type { DataSourceCounts } from "../../db/schema/data-sources.ts";

/**
 * What a data source is to the sync (decision 035): a name, whether it is configured, and a `run`
 * that fetches its document — conditionally, from the validators of the last complete one — and
 * writes what changed. The service claims, records and schedules; a source only syncs.
 */

export type { DataSourceCounts };

/** The validators of the last complete document (HTTP ETag and Last-Modified). */
export interface SourceValidators {
  etag: string | null;
  lastModified: string | null;
}

export interface SourceRunContext {
  database: Database;
  validators: SourceValidators;
}

export type SourceRunResult =
  /** The upstream answered 304: one request, nothing written. */
  | { kind: "not_modified" }
  | {
      kind: "synced";
      counts: DataSourceCounts;
      /** Why entries were refused, the first few (for the log and the CLI). */
      rejections: { id: string; reason: string }[];
      validators: SourceValidators;
      /** Whether anything public was written (the data version moved). */
      wrote: boolean;
    };

export interface DataSource {
  /** The key of its `data_sources` row and of `/api/staff/data-sources/{source}/sync`. */
  name: string;
  /** What staff read. */
  label: string;
  configured: boolean;
  /**
   * Writes its values onto the records by CVE (KEV, EPSS): while records written since its last
   * complete document wait for them (`cve_signal_checks`), its request is unconditional.
   */
  annotatesRecords?: boolean;
  run(context: SourceRunContext): Promise<SourceRunResult>;
  /** What the database holds from it now, for the staff page's "N records" (`held.what` says of what). */
  held(database: Database): Promise<{ count: number; what: string }>;
}

/**
 * A failure of a source, in the words staff read as the source's last error: a refused key, a server
 * error, a truncated document. `retryAfterSeconds`: the upstream asked to wait this long.
 */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "SourceError";
  }
}

export const ZERO_COUNTS: DataSourceCounts = { new: 0, changed: 0, unchanged: 0, withdrawn: 0, rejected: 0 };
