import type { SqlRunner } from "../../db/client.ts";
import type { DataSourceCounts, SourceValidators } from "./source.ts";

/** The `data_sources` rows (decision 035): claims, outcomes, back-off. */

export interface DataSourceRow {
  source: string;
  last_attempt_at: Date | string | null;
  last_success_at: Date | string | null;
  last_error: string | null;
  last_counts: DataSourceCounts | null;
  next_attempt_at: Date | string | null;
  syncing: boolean;
}

export interface Claim {
  validators: SourceValidators;
}

export function createDataSourceQueries(sql: SqlRunner) {
  return {
    async list(): Promise<DataSourceRow[]> {
      const { rows } = await sql.query<DataSourceRow>(
        `select source, last_attempt_at, last_success_at, last_error, last_counts, next_attempt_at,
           coalesce(claimed_until > now(), false) as syncing
         from data_sources order by source`,
      );
      return rows;
    },

    /**
     * Claims a source for one run, across every instance on the database: one `UPDATE`, so of two
     * instances at once one gets the row and the other none. A scheduled claim also needs the source to
     * be due: its back-off passed, and its last success older than the interval. Null: not claimed.
     */
    async claim(
      source: string,
      owner: string,
      leaseSeconds: number,
      scheduled: { intervalSeconds: number } | null,
    ): Promise<Claim | null> {
      await sql.query("insert into data_sources (source) values ($1) on conflict (source) do nothing", [
        source,
      ]);
      const { rows } = await sql.query<{ etag: string | null; last_modified: string | null }>(
        `update data_sources set claimed_by = $2, claimed_until = now() + make_interval(secs => $3),
           last_attempt_at = now(), updated_at = now()
         where source = $1 and (claimed_until is null or claimed_until <= now())
           and ($4::float8 is null or (
             (next_attempt_at is null or next_attempt_at <= now())
             and (last_success_at is null or last_success_at <= now() - make_interval(secs => $4::float8))))
         returning etag, last_modified`,
        [source, owner, leaseSeconds, scheduled?.intervalSeconds ?? null],
      );
      const row = rows[0];
      return row ? { validators: { etag: row.etag, lastModified: row.last_modified } } : null;
    },

    /** The records `source` has not applied a document to yet (`cve_signal_checks`, migration 0034). */
    async pendingSignalChecks(source: string): Promise<string[]> {
      const { rows } = await sql.query<{ id: string }>(
        "select vulnerability_id::text as id from cve_signal_checks where source = $1",
        [source],
      );
      return rows.map((row) => row.id);
    },

    /** After a complete document was applied: these records hold `source`'s values now. */
    async clearSignalChecks(source: string, ids: readonly string[]): Promise<void> {
      await sql.query(
        "delete from cve_signal_checks where source = $1 and vulnerability_id = any($2::uuid[])",
        [source, ids],
      );
    },

    /** Keeps a long run's claim alive. */
    async extend(source: string, owner: string, leaseSeconds: number): Promise<void> {
      await sql.query(
        `update data_sources set claimed_until = now() + make_interval(secs => $3)
         where source = $1 and claimed_by = $2`,
        [source, owner, leaseSeconds],
      );
    },

    /** A run that ended well: the error, failures and back-off cleared, the claim released. */
    async succeeded(
      source: string,
      owner: string,
      outcome: { counts: DataSourceCounts; validators: SourceValidators } | null,
    ): Promise<void> {
      await sql.query(
        `update data_sources set last_success_at = now(), last_error = null, consecutive_failures = 0,
           next_attempt_at = null, claimed_until = null, claimed_by = null, updated_at = now(),
           last_counts = coalesce($3::jsonb, last_counts),
           etag = case when $3::jsonb is null then etag else $4 end,
           last_modified = case when $3::jsonb is null then last_modified else $5 end
         where source = $1 and claimed_by = $2`,
        [
          source,
          owner,
          outcome ? JSON.stringify(outcome.counts) : null,
          outcome?.validators.etag ?? null,
          outcome?.validators.lastModified ?? null,
        ],
      );
    },

    /**
     * A run that failed: its words kept, and the next scheduled attempt put off by the interval times
     * 2^(failures before this one), at most a day — or as long as the upstream asked, if longer.
     */
    async failed(
      source: string,
      owner: string,
      error: string,
      intervalSeconds: number,
      retryAfterSeconds: number | null,
    ): Promise<void> {
      await sql.query(
        `update data_sources set last_error = $3, consecutive_failures = consecutive_failures + 1,
           next_attempt_at = now() + make_interval(secs => greatest(
             least($4::float8 * power(2, least(consecutive_failures, 16)), 86400), coalesce($5::float8, 0))),
           claimed_until = null, claimed_by = null, updated_at = now()
         where source = $1 and claimed_by = $2`,
        [source, owner, error, intervalSeconds, retryAfterSeconds],
      );
    },
  };
}
