import type { Database, SqlRunner } from "./client.ts";
import { bumpDataVersion } from "./data-version.ts";
import type { WriteResult } from "./import-batches.ts";
import { writePlugins } from "./import-plugins.ts";
import type { ImportSource, RecordKind } from "./import-records.ts";
import { writeVulnerabilities } from "./import-vulnerabilities.ts";
import { updateInferredFixes } from "./infer-fixed.ts";
import { type Hashed, parseRecords, type RecordOf } from "./parse-records.ts";

/**
 * Bulk import of the seed's JSON Lines files (data/wordpress-vulns/README.md) into the public
 * database. Records are validated line by line, then written in batches, each batch in one
 * transaction of a few `insert … select … from unnest($1::text[], …) on conflict … do update`
 * statements: one round trip per table instead of one per row, which is what makes 37,000 records take
 * seconds on PGlite (TOOLCHAIN.md). Re-importing is idempotent: rows are matched on their natural keys
 * (products on platform/kind/slug, vulnerabilities on the Wordfence id, researchers on credit_key);
 * product and vulnerability rows are only rewritten when a value changed, so `updated_at` stays
 * meaningful, while the affected ranges and credits of every imported record are replaced.
 */

interface RejectedLine {
  line: number;
  reason: string;
}

export interface ImportProgress {
  kind: RecordKind;
  read: number;
  imported: number;
  rejected: number;
}

export interface ImportSummary {
  kind: RecordKind;
  /** Non-blank lines read. */
  read: number;
  /** Valid records written (inserted + updated + unchanged). */
  imported: number;
  inserted: number;
  /** Records whose existing row had changed (for vulnerabilities: the vulnerability row itself). */
  updated: number;
  /** Records that existed with the same values (a re-import). */
  unchanged: number;
  rejected: RejectedLine[];
}

export interface ImportOptions {
  /** Called after every batch. */
  onProgress?: (progress: ImportProgress) => void;
  /** Records per transaction; 1000 by default. */
  batchSize?: number;
  /**
   * Whether to gather planner statistics at the end (yes by default). No when an import of the same
   * tables follows at once and gathers them (the seed's plugin file: the vulnerability file's
   * `analyze` covers products, and the first start is 0.5 s shorter).
   */
  analyze?: boolean;
}

/** The platform every seed record belongs to (spec §2 `{platform}`). */
const WORDPRESS_PLATFORM = { slug: "wordpress", name: "WordPress" } as const;

/**
 * Imports Wordfence vulnerability records (README §1.4): their products, the vulnerability, its affected
 * ranges (replaced) and its credited researchers (replaced). `source` is a path to a `.jsonl` or gzip
 * file, or the lines themselves.
 */
export function importVulnerabilities(
  database: Database,
  source: ImportSource,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return runImport(database, source, options, {
    kind: "vulns",
    tables: ["products", "vulnerabilities", "affected_ranges", "researchers", "credits"],
    keyOf: (record) => record.id,
    async storedHashes(sql, _platformId, ids) {
      const { rows } = await sql.query<{ id: string; source_hash: string | null }>(
        "select id::text, source_hash from vulnerabilities where id = any($1::uuid[])",
        [ids],
      );
      return new Map(rows.map((row) => [row.id, row.source_hash]));
    },
    write: writeVulnerabilities,
  });
}

/**
 * Imports WordPress.org plugin directory records (README §2.3) into products of kind plugin: the
 * directory's name and metadata win over names parsed from advisory titles.
 */
export function importPlugins(
  database: Database,
  source: ImportSource,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return runImport(database, source, options, {
    kind: "plugins",
    tables: ["products"],
    keyOf: (record) => record.slug,
    async storedHashes(sql, platformId, slugs) {
      const { rows } = await sql.query<{ slug: string; directory_source_hash: string | null }>(
        `select slug, directory_source_hash from products
         where platform_id = $1 and kind = 'plugin' and slug = any($2::text[])`,
        [platformId, slugs],
      );
      return new Map(rows.map((row) => [row.slug, row.directory_source_hash]));
    },
    write: writePlugins,
  });
}

interface Importer<Kind extends RecordKind, Record = RecordOf<Kind>> {
  kind: Kind;
  /** The tables it writes, analysed after an import that inserted rows. */
  tables: readonly string[];
  keyOf(record: Record): string;
  /** The source hashes stored for these keys by earlier imports (keys never imported are absent). */
  storedHashes(sql: SqlRunner, platformId: number, keys: string[]): Promise<Map<string, string | null>>;
  write(sql: SqlRunner, platformId: number, records: Hashed<Record>[]): Promise<WriteResult>;
}

interface Entry<Record> {
  line: number;
  record: Hashed<Record>;
}

async function runImport<Kind extends RecordKind, Record extends RecordOf<Kind>>(
  database: Database,
  source: ImportSource,
  options: ImportOptions,
  importer: Importer<Kind, Record>,
): Promise<ImportSummary> {
  const batchSize = Math.max(1, options.batchSize ?? 1000);
  const summary: ImportSummary = {
    kind: importer.kind,
    read: 0,
    imported: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: [],
  };
  const groups = await parseRecords(source, importer.kind);
  const platformId = await ensurePlatform(database.sql);
  let batch = new Map<string, Entry<Record>>();
  /** Records whose line had changed since their last import (or were new): what was written. */
  let written = 0;

  const write = async (entries: Entry<Record>[]): Promise<void> => {
    try {
      const result = await database.sql.transaction(async (tx) => {
        // The search-document triggers stand aside: the importer writes documents itself (migration 0014).
        await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
        const stored = await importer.storedHashes(
          tx,
          platformId,
          entries.map((entry) => importer.keyOf(entry.record)),
        );
        const changed = entries
          .filter((entry) => stored.get(importer.keyOf(entry.record)) !== entry.record.sourceHash)
          .map((entry) => entry.record);
        if (changed.length === 0) return { inserted: 0, updated: 0, written: 0 };
        return { ...(await importer.write(tx, platformId, changed)), written: changed.length };
      });
      summary.imported += entries.length;
      summary.inserted += result.inserted;
      summary.updated += result.updated;
      summary.unchanged += entries.length - result.inserted - result.updated;
      written += result.written;
    } catch (error) {
      if (!isDataError(error)) throw error;
      // A record the schema let through but the database refuses (say, a slug taken by another
      // record): retry one by one so that only the offending lines are rejected.
      if (entries.length === 1) {
        summary.rejected.push({ line: entries[0]!.line, reason: `database: ${(error as Error).message}` });
        return;
      }
      for (const entry of entries) await write([entry]);
    }
  };
  const flush = async () => {
    if (batch.size === 0) return;
    const entries = [...batch.values()];
    batch = new Map();
    await write(entries);
    options.onProgress?.({
      kind: importer.kind,
      read: summary.read,
      imported: summary.imported,
      rejected: summary.rejected.length,
    });
  };

  for await (const group of groups) {
    for (const parsed of group) {
      summary.read++;
      if (parsed.reason !== undefined) {
        summary.rejected.push({ line: parsed.line, reason: parsed.reason });
        continue;
      }
      const record = parsed.record as Hashed<Record>;
      const key = importer.keyOf(record);
      // One statement cannot upsert a row twice: a repeated key starts a new batch, so the later line wins.
      if (batch.has(key)) await flush();
      batch.set(key, { line: parsed.line, record });
      if (batch.size >= batchSize) await flush();
    }
  }
  await flush();
  // Fresh planner statistics for what grew: PGlite has no autovacuum to gather them ever, and
  // PostgreSQL's would come minutes later. Without them a batch check read all 60 000 products.
  if (summary.inserted > 0 && options.analyze !== false)
    await database.sql.query(`analyze ${importer.tables.join(", ")}`);
  // New ranges and new current versions change what is fixed in a later version (issue 17). The
  // column is in no search document: the range triggers stand aside, as for the batches.
  const inferred = await database.sql.transaction(async (tx) => {
    await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
    return updateInferredFixes(tx);
  });
  // Ranges and credits are replaced even when the record row is unchanged: any write counts.
  if (written > 0 || inferred > 0) {
    // Every search reads a GIN index's pending entries in full until they are merged, and only
    // autovacuum merges them (PGlite has none): the batches' entries are merged now (migration 0032).
    await mergePendingIndexEntries(database.sql);
    await bumpDataVersion(database.sql);
  }
  return summary;
}

/**
 * Merges the pending entries of every GIN index of the schema (nothing pending: nothing to do). Only
 * an index's owner may (like VACUUM): a role that writes the tables without owning them, beside the
 * one that ran the migrations, leaves the merge to autovacuum instead of failing the import.
 */
export async function mergePendingIndexEntries(sql: SqlRunner): Promise<void> {
  await sql.query(
    `select gin_clean_pending_list(i.indexrelid)
     from pg_index i
     join pg_class c on c.oid = i.indexrelid
     join pg_am am on am.oid = c.relam
     where am.amname = 'gin' and c.relnamespace = current_schema()::regnamespace
       and pg_has_role(c.relowner, 'USAGE')`,
  );
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation): the row's fault. */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("22") || code.startsWith("23"));
}

export async function ensurePlatform(sql: SqlRunner): Promise<number> {
  await sql.query("insert into platforms (slug, name) values ($1, $2) on conflict (slug) do nothing", [
    WORDPRESS_PLATFORM.slug,
    WORDPRESS_PLATFORM.name,
  ]);
  const { rows } = await sql.query<{ id: number }>("select id from platforms where slug = $1", [
    WORDPRESS_PLATFORM.slug,
  ]);
  return rows[0]!.id;
}
