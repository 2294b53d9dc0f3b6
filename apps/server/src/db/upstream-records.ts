import type { Database, SqlRunner } from "./client.ts";
import { bumpDataVersion } from "./data-version.ts";
import { ensurePlatform, isDataError, mergePendingIndexEntries } from "./import.ts";
import type { VulnerabilityRecord } from "./import-records.ts";
import { writeVulnerabilities } from "./import-vulnerabilities.ts";
import { updateInferredFixes } from "./infer-fixed.ts";
import type { Hashed } from "./parse-records.ts";

/**
 * Records from an upstream feed (issue 34, decision 035), written with the bulk import's own batch
 * writer (`writeVulnerabilities`: the same upsert, range encoding, credits, search documents and
 * watchlist alert marks) but without its file reader: the data-sources module reaches the writer
 * through this file, since modules do not call the bulk import (`modules-import-no-seed-import`).
 */

export { VulnerabilityRecord } from "./import-records.ts";

/** A feed record in the import's shape; `sourceHash` hashes its content (not its `updated` date). */
export type UpstreamRecord = Hashed<VulnerabilityRecord>;

/** What is stored of a record the feed lists. */
export interface StoredRecordState {
  source: string;
  sourceHash: string | null;
  withdrawn: boolean;
}

/** The stored source, hash and withdrawal of these ids (ids not stored are absent). */
export async function storedRecordStates(
  sql: SqlRunner,
  ids: readonly string[],
): Promise<Map<string, StoredRecordState>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql.query<{
    id: string;
    source: string;
    source_hash: string | null;
    withdrawn: boolean;
  }>(
    `select id::text, source, source_hash, withdrawn_at is not null as withdrawn
     from vulnerabilities where id = any($1::uuid[])`,
    [ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { source: row.source, sourceHash: row.source_hash, withdrawn: row.withdrawn },
    ]),
  );
}

export interface UpstreamWriteResult {
  inserted: number;
  updated: number;
  /** Records the database refused (a slug taken by another record, say), with its words. */
  rejected: { id: string; reason: string }[];
}

/**
 * Writes one batch in one transaction, as an import batch is written (the search triggers stand
 * aside, migration 0014). A batch the database refuses is retried record by record, so that only the
 * offending records are rejected.
 */
export async function writeUpstreamRecords(
  database: Database,
  records: UpstreamRecord[],
): Promise<UpstreamWriteResult> {
  const result: UpstreamWriteResult = { inserted: 0, updated: 0, rejected: [] };
  if (records.length === 0) return result;
  const platformId = await ensurePlatform(database.sql);
  const write = async (batch: UpstreamRecord[]): Promise<void> => {
    try {
      const written = await database.sql.transaction(async (tx) => {
        await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
        return writeVulnerabilities(tx, platformId, batch);
      });
      result.inserted += written.inserted;
      result.updated += written.updated;
    } catch (error) {
      if (!isDataError(error)) throw error;
      if (batch.length === 1) {
        result.rejected.push({ id: batch[0]!.id, reason: `database: ${(error as Error).message}` });
        return;
      }
      for (const record of batch) await write([record]);
    }
  };
  await write(records);
  return result;
}

/**
 * Marks withdrawn every live record of `source` that the complete document did not list (kept, never
 * deleted). Records of another source, staff-published ones included, are never touched.
 */
export async function withdrawUnlisted(
  sql: SqlRunner,
  source: string,
  listedIds: readonly string[],
): Promise<number> {
  const { rows } = await sql.query<{ id: string }>(
    `update vulnerabilities v set withdrawn_at = now(), updated_at = now()
     where v.source = $1 and v.withdrawn_at is null
       and not exists (select 1 from unnest($2::uuid[]) as listed(id) where listed.id = v.id)
     returning v.id::text`,
    [source, listedIds],
  );
  return rows.length;
}

/** How many live records of `source` the document does not list: what `withdrawUnlisted` would withdraw. */
export async function countUnlisted(
  sql: SqlRunner,
  source: string,
  listedIds: readonly string[],
): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `select count(*)::int as count from vulnerabilities v
     where v.source = $1 and v.withdrawn_at is null
       and not exists (select 1 from unnest($2::uuid[]) as listed(id) where listed.id = v.id)`,
    [source, listedIds],
  );
  return rows[0]?.count ?? 0;
}

/** How many live (not withdrawn) records `source` has. */
export async function liveRecordCount(sql: SqlRunner, source: string): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    "select count(*)::int as count from vulnerabilities where source = $1 and withdrawn_at is null",
    [source],
  );
  return rows[0]?.count ?? 0;
}

/**
 * What an import does after its batches, when a run wrote anything: planner statistics for what grew,
 * the inferred fixes, the GIN indexes' pending entries merged, and a new data version (which the
 * response stores, the export files and every instance's caches follow).
 */
export async function finishUpstreamWrite(database: Database, { inserted }: { inserted: number }) {
  if (inserted > 0) await database.sql.query("analyze products, vulnerabilities, affected_ranges, credits");
  await database.sql.transaction(async (tx) => {
    await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
    return updateInferredFixes(tx);
  });
  await mergePendingIndexEntries(database.sql);
  await bumpDataVersion(database.sql);
}
