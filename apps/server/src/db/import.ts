import {
  classifyVulnerabilityType,
  requiredPrivilegeFromTitle,
  severityFromScore,
  vulnerabilitySlug,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "./client.ts";
import { bumpDataVersion } from "./data-version.ts";
import type { ImportSource, PluginRecord, RecordKind, VulnerabilityRecord } from "./import-records.ts";
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

interface WriteResult {
  inserted: number;
  updated: number;
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
  if (summary.inserted > 0) await database.sql.query(`analyze ${importer.tables.join(", ")}`);
  // Ranges and credits are replaced even when the record row is unchanged: any write counts.
  if (written > 0) await bumpDataVersion(database.sql);
  return summary;
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation): the row's fault. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("22") || code.startsWith("23"));
}

async function ensurePlatform(sql: SqlRunner): Promise<number> {
  await sql.query("insert into platforms (slug, name) values ($1, $2) on conflict (slug) do nothing", [
    WORDPRESS_PLATFORM.slug,
    WORDPRESS_PLATFORM.name,
  ]);
  const { rows } = await sql.query<{ id: number }>("select id from platforms where slug = $1", [
    WORDPRESS_PLATFORM.slug,
  ]);
  return rows[0]!.id;
}

function countInserted(rows: { inserted: boolean }[]): WriteResult {
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/** Column arrays for `unnest`, one array per column, built row by row. */
function columns<Row, Key extends string>(rows: readonly Row[], pick: (row: Row) => { [K in Key]: unknown }) {
  const result = {} as { [K in Key]: unknown[] };
  for (const row of rows) {
    const values = pick(row);
    for (const key of Object.keys(values) as Key[]) {
      result[key] ??= [];
      result[key].push(values[key]);
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Vulnerabilities

/**
 * The type code of a record. A few titles have no " - " before the type, so the seed has no vuln_type
 * for them: the title after the product name is classified instead.
 */
export function vulnerabilityTypeCodeOf(
  record: Pick<VulnerabilityRecord, "vuln_type" | "title" | "software_name">,
) {
  if (record.vuln_type?.trim()) return classifyVulnerabilityType(record.vuln_type);
  const name = record.software_name;
  const rest = name && record.title.startsWith(name) ? record.title.slice(name.length) : record.title;
  return classifyVulnerabilityType(rest);
}

const productKey = (kind: string, slug: string) => `${kind}\u0000${slug}`;

async function writeVulnerabilities(
  sql: SqlRunner,
  platformId: number,
  records: Hashed<VulnerabilityRecord>[],
): Promise<WriteResult> {
  // 1. Products: created with the title's product name, or the slug. An existing product's name only
  //    changes while it is still the slug fallback and no directory or vendor has named it (a few
  //    directory names equal their slug), so re-imports never flip names back and forth.
  const productNames = new Map<string, { kind: string; slug: string; name: string | null }>();
  for (const record of records) {
    for (const item of record.software) {
      const key = productKey(item.software_type, item.slug);
      const known = productNames.get(key);
      if (!known)
        productNames.set(key, {
          kind: item.software_type,
          slug: item.slug,
          name: item.software_name ?? null,
        });
      else if (!known.name && item.software_name) known.name = item.software_name;
    }
  }
  const products = columns([...productNames.values()], (product) => product);
  await sql.query(
    `insert into products as p (platform_id, kind, slug, name)
     select $1, i.kind, i.slug, coalesce(nullif(trim(i.name), ''), i.slug)
     from unnest($2::text[], $3::text[], $4::text[]) as i(kind, slug, name)
     on conflict (platform_id, kind, slug) do update set name = excluded.name, updated_at = now()
     where p.name = p.slug and excluded.name <> excluded.slug and p.vendor_id is null
       and p.directory_url is null`,
    [platformId, products.kind, products.slug, products.name],
  );
  const { rows: productRows } = await sql.query<{ id: number; kind: string; slug: string; name: string }>(
    `select p.id, p.kind, p.slug, p.name from products p
     join unnest($2::text[], $3::text[]) as i(kind, slug) on p.kind = i.kind and p.slug = i.slug
     where p.platform_id = $1`,
    [platformId, products.kind, products.slug],
  );
  const productIds = new Map(productRows.map((row) => [productKey(row.kind, row.slug), row.id]));
  const productNamesById = new Map(productRows.map((row) => [row.id, `${row.name} ${row.slug}`]));
  const productIdOf = (kind: string, slug: string) => {
    const id = productIds.get(productKey(kind, slug));
    if (id === undefined) throw new Error(`product ${kind}/${slug} was not created`);
    return id;
  };

  // 2. Vulnerabilities, rewritten only when a value changed (so updated_at means something). The
  //    search document's product part is what vulnerability_search_document() reads from the ranges
  //    written in step 3: the names and slugs of the distinct range products, in id order.
  const productTextOf = (record: VulnerabilityRecord) =>
    [...new Set(record.software.map((item) => productIdOf(item.software_type, item.slug)))]
      .sort((a, b) => a - b)
      .map((id) => productNamesById.get(id))
      .join(" ");
  const vulnerabilities = columns(records, (record) => {
    const typeCode = vulnerabilityTypeCodeOf(record);
    return {
      id: record.id,
      slug: vulnerabilitySlug(record.title, record.id),
      productId: productIdOf(record.software_type, record.slug),
      title: record.title,
      description: record.description,
      typeLabel: record.vuln_type?.trim() || null,
      typeCode,
      owaspCode: vulnerabilityTypeByCode.get(typeCode)?.owasp ?? null,
      requiredPrivilege: requiredPrivilegeFromTitle(record.title),
      cvssVector: record.cvss_vector ?? null,
      cvssScore: record.cvss_score ?? null,
      cvssVersion: record.cvss_version ?? null,
      severity:
        record.cvss_rating?.toLowerCase() ??
        (record.cvss_score != null ? severityFromScore(record.cvss_score) : null),
      cve: record.cve ?? null,
      cwe: record.cwe ?? null,
      references: JSON.stringify(record.references),
      fixedIn: record.fixed_in ?? null,
      patched: record.fixed_in != null,
      affectedPossiblyIncomplete: record.affected_possibly_incomplete,
      publishedAt: record.published_at ?? null,
      sourceUpdatedAt: record.updated_at ?? null,
      source: record.source,
      sourceUrl: record.source_url ?? null,
      attribution: record.attribution ?? null,
      sourceHash: record.sourceHash,
      productText: productTextOf(record),
      productKind: record.software_type,
    };
  });
  const valueColumns = [
    "slug",
    "product_id",
    "title",
    "description",
    "type_label",
    "type_code",
    "owasp_code",
    "required_privilege",
    "cvss_vector",
    "cvss_score",
    "cvss_version",
    "severity",
    "cve",
    "cwe",
    '"references"',
    "fixed_in",
    "patched",
    "affected_possibly_incomplete",
    "published_at",
    "source_updated_at",
    "source",
    "source_url",
    "attribution",
    "product_kind",
    "search_document",
  ];
  const tuple = (alias: string) => `(${valueColumns.map((column) => `${alias}.${column}`).join(", ")})`;
  const { rows: written } = await sql.query<{ inserted: boolean }>(
    `insert into vulnerabilities as v (id, slug, product_id, title, description, type_label, type_code,
       owasp_code, required_privilege, cvss_vector, cvss_score, cvss_version, severity, cve, cwe,
       "references", fixed_in, patched, affected_possibly_incomplete, published_at, source_updated_at,
       source, source_url, attribution, source_hash, product_kind, search_document)
     select r.id::uuid, r.slug, r.product_id, r.title, r.description, r.type_label, r.type_code,
       r.owasp_code, r.required_privilege, r.cvss_vector, r.cvss_score, r.cvss_version, r.severity, r.cve,
       r.cwe, r.refs::jsonb, r.fixed_in, r.patched, r.incomplete, r.published_at::timestamptz,
       r.source_updated_at::timestamptz, r.source, r.source_url, r.attribution, r.source_hash,
       r.product_kind,
       setweight(to_tsvector('simple', r.product_text), 'A')
         || to_tsvector('simple', coalesce(r.title, '') || ' ' || coalesce(r.description, ''))
     from unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int2[],
       $8::int2[], $9::int2[], $10::text[], $11::float8[], $12::text[], $13::text[], $14::text[],
       $15::text[], $16::text[], $17::text[], $18::bool[], $19::bool[], $20::text[], $21::text[],
       $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::text[])
       as r(id, slug, product_id, title, description, type_label, type_code, owasp_code,
         required_privilege, cvss_vector, cvss_score, cvss_version, severity, cve, cwe, refs, fixed_in,
         patched, incomplete, published_at, source_updated_at, source, source_url, attribution,
         source_hash, product_text, product_kind)
     on conflict (id) do update set
       ${valueColumns.map((column) => `${column} = excluded.${column}`).join(", ")},
       source_hash = excluded.source_hash,
       updated_at = case when ${tuple("v")} is distinct from ${tuple("excluded")} then now()
         else v.updated_at end
     where ${tuple("v")} is distinct from ${tuple("excluded")}
       or v.source_hash is distinct from excluded.source_hash
     returning (xmax = 0) as inserted`,
    [
      vulnerabilities.id,
      vulnerabilities.slug,
      vulnerabilities.productId,
      vulnerabilities.title,
      vulnerabilities.description,
      vulnerabilities.typeLabel,
      vulnerabilities.typeCode,
      vulnerabilities.owaspCode,
      vulnerabilities.requiredPrivilege,
      vulnerabilities.cvssVector,
      vulnerabilities.cvssScore,
      vulnerabilities.cvssVersion,
      vulnerabilities.severity,
      vulnerabilities.cve,
      vulnerabilities.cwe,
      vulnerabilities.references,
      vulnerabilities.fixedIn,
      vulnerabilities.patched,
      vulnerabilities.affectedPossiblyIncomplete,
      vulnerabilities.publishedAt,
      vulnerabilities.sourceUpdatedAt,
      vulnerabilities.source,
      vulnerabilities.sourceUrl,
      vulnerabilities.attribution,
      vulnerabilities.sourceHash,
      vulnerabilities.productText,
      vulnerabilities.productKind,
    ],
  );
  const ids = records.map((record) => record.id);

  // 3. Affected ranges: replaced, one row per range of every software item.
  const ranges = columns(
    records.flatMap((record) =>
      record.software.flatMap((item) =>
        item.affected.map((range, position) => ({ record, item, range, position })),
      ),
    ),
    ({ record, item, range, position }) => ({
      vulnerabilityId: record.id,
      productId: productIdOf(item.software_type, item.slug),
      position,
      introduced: range.introduced ?? null,
      introducedInclusive: range.introduced_inclusive ?? true,
      fixed: range.fixed ?? null,
      lastAffected: range.last_affected ?? null,
      prefix: range.prefix,
      version: range.version,
      fixedIn: item.fixed_in ?? null,
    }),
  );
  await sql.query("delete from affected_ranges where vulnerability_id = any($1::uuid[])", [ids]);
  await sql.query(
    `insert into affected_ranges (vulnerability_id, product_id, position, introduced, introduced_inclusive,
       fixed, last_affected, prefix, version, fixed_in)
     select r.vulnerability_id::uuid, r.product_id, r.position, r.introduced, r.introduced_inclusive, r.fixed,
       r.last_affected, r.prefix, r.version, r.fixed_in
     from unnest($1::text[], $2::int[], $3::int2[], $4::text[], $5::bool[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::text[])
       as r(vulnerability_id, product_id, position, introduced, introduced_inclusive, fixed, last_affected,
         prefix, version, fixed_in)`,
    [
      ranges.vulnerabilityId,
      ranges.productId,
      ranges.position,
      ranges.introduced,
      ranges.introducedInclusive,
      ranges.fixed,
      ranges.lastAffected,
      ranges.prefix,
      ranges.version,
      ranges.fixedIn,
    ],
  );

  // 4. Researchers, matched on credit_key = lower(trim(name)); an existing display name is kept.
  const researcherNames = new Map<string, string>();
  const creditKeysOf = new Map<string, string[]>();
  for (const record of records) {
    const keys: string[] = [];
    for (const name of record.researchers ?? []) {
      const displayName = name.trim();
      const key = creditKeyOf(displayName);
      if (key === "" || keys.includes(key)) continue;
      keys.push(key);
      if (!researcherNames.has(key)) researcherNames.set(key, displayName);
    }
    creditKeysOf.set(record.id, keys);
  }
  await sql.query("delete from credits where vulnerability_id = any($1::uuid[])", [ids]);
  if (researcherNames.size > 0) {
    const keys = [...researcherNames.keys()];
    await sql.query(
      `insert into researchers (display_name, credit_key)
       select r.display_name, r.credit_key from unnest($1::text[], $2::text[]) as r(display_name, credit_key)
       on conflict (credit_key) do nothing`,
      [[...researcherNames.values()], keys],
    );
    const { rows } = await sql.query<{ id: number; credit_key: string }>(
      "select id, credit_key from researchers where credit_key = any($1::text[])",
      [keys],
    );
    const researcherIds = new Map(rows.map((row) => [row.credit_key, row.id]));

    // 5. Credits: replaced, in the source's order.
    const credits = columns(
      [...creditKeysOf].flatMap(([vulnerabilityId, creditKeys]) =>
        creditKeys.map((key, position) => ({
          vulnerabilityId,
          researcherId: researcherIds.get(key)!,
          position,
        })),
      ),
      (credit) => credit,
    );
    await sql.query(
      `insert into credits (vulnerability_id, researcher_id, position, role)
       select c.vulnerability_id::uuid, c.researcher_id, c.position, 'finder'
       from unnest($1::text[], $2::int[], $3::int2[]) as c(vulnerability_id, researcher_id, position)`,
      [credits.vulnerabilityId, credits.researcherId, credits.position],
    );
  }
  return countInserted(written);
}

/** The key that makes an imported credit name one researcher: lower(trim(name)). */
export function creditKeyOf(name: string): string {
  return name.trim().toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// Plugins

async function writePlugins(
  sql: SqlRunner,
  platformId: number,
  records: Hashed<PluginRecord>[],
): Promise<WriteResult> {
  const plugins = columns(records, (record) => ({
    slug: record.slug,
    name: record.name,
    version: record.version ?? null,
    author: record.author ?? null,
    activeInstalls: record.active_installs ?? null,
    rating: record.rating ?? null,
    numRatings: record.num_ratings ?? null,
    requiresWp: record.requires ?? null,
    testedWp: record.tested ?? null,
    requiresPhp: record.requires_php ?? null,
    directoryUpdated: record.last_updated ?? null,
    directoryAdded: record.added ?? null,
    directoryUrl: record.wordpress_org_url ?? null,
    homepage: record.homepage ?? null,
    description: record.short_description ?? null,
    tags: JSON.stringify(record.tags),
    versions: JSON.stringify(record.versions),
    sourceHash: record.sourceHash,
  }));
  // A product a vendor owns keeps the name, URLs and description the vendor gave it; the directory's
  // factual metadata is refreshed either way.
  const pluginValuesChanged = `((p.version, p.author, p.active_installs, p.rating, p.num_ratings, p.requires_wp, p.tested_wp,
         p.requires_php, p.directory_updated, p.directory_added, p.directory_url, p.tags, p.versions)
       is distinct from (excluded.version, excluded.author, excluded.active_installs, excluded.rating,
         excluded.num_ratings, excluded.requires_wp, excluded.tested_wp, excluded.requires_php,
         excluded.directory_updated, excluded.directory_added, excluded.directory_url, excluded.tags,
         excluded.versions)
       or (p.vendor_id is null and (p.name, p.product_url, p.vendor_website_url, p.description)
         is distinct from (excluded.name, excluded.product_url, excluded.vendor_website_url,
           excluded.description)))`;
  const { rows } = await sql.query<{ inserted: boolean }>(
    `insert into products as p (platform_id, kind, slug, name, version, author, active_installs, rating,
       num_ratings, requires_wp, tested_wp, requires_php, directory_updated, directory_added, directory_url,
       product_url, vendor_website_url, description, tags, versions, directory_source_hash)
     select $1, 'plugin', r.slug, r.name, r.version, r.author, r.active_installs, r.rating, r.num_ratings,
       r.requires_wp, r.tested_wp, r.requires_php, r.directory_updated, r.directory_added::date,
       r.directory_url, r.directory_url, r.homepage, r.description,
       array(select jsonb_array_elements_text(r.tags::jsonb)),
       array(select jsonb_array_elements_text(r.versions::jsonb)), r.source_hash
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int2[], $8::int[],
       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
       $16::text[], $17::text[], $18::text[], $19::text[])
       as r(slug, name, version, author, active_installs, rating, num_ratings, requires_wp, tested_wp,
         requires_php, directory_updated, directory_added, directory_url, homepage, description, tags,
         versions, source_hash)
     on conflict (platform_id, kind, slug) do update set
       name = case when p.vendor_id is null then excluded.name else p.name end,
       product_url = case when p.vendor_id is null then excluded.product_url else p.product_url end,
       vendor_website_url = case when p.vendor_id is null then excluded.vendor_website_url
         else p.vendor_website_url end,
       description = case when p.vendor_id is null then excluded.description else p.description end,
       version = excluded.version, author = excluded.author, active_installs = excluded.active_installs,
       rating = excluded.rating, num_ratings = excluded.num_ratings, requires_wp = excluded.requires_wp,
       tested_wp = excluded.tested_wp, requires_php = excluded.requires_php,
       directory_updated = excluded.directory_updated, directory_added = excluded.directory_added,
       directory_url = excluded.directory_url, tags = excluded.tags, versions = excluded.versions,
       directory_source_hash = excluded.directory_source_hash,
       updated_at = case when ${pluginValuesChanged} then now() else p.updated_at end
     where ${pluginValuesChanged}
       or p.directory_source_hash is distinct from excluded.directory_source_hash
     returning (xmax = 0) as inserted`,
    [
      platformId,
      plugins.slug,
      plugins.name,
      plugins.version,
      plugins.author,
      plugins.activeInstalls,
      plugins.rating,
      plugins.numRatings,
      plugins.requiresWp,
      plugins.testedWp,
      plugins.requiresPhp,
      plugins.directoryUpdated,
      plugins.directoryAdded,
      plugins.directoryUrl,
      plugins.homepage,
      plugins.description,
      plugins.tags,
      plugins.versions,
      plugins.sourceHash,
    ],
  );
  return countInserted(rows);
}
