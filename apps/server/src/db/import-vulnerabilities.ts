import {
  classifyVulnerabilityType,
  requiredPrivilegeFromTitle,
  severityFromScore,
  vulnerabilitySlug,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import type { SqlRunner } from "./client.ts";
import { columns, countInserted, type WriteResult } from "./import-batches.ts";
import type { VulnerabilityRecord } from "./import-records.ts";
import { inferRecordFixes } from "./infer-fixed.ts";
import type { Hashed } from "./parse-records.ts";

/**
 * The vulnerability file's batch writer (import.ts runs it): products, vulnerabilities, their
 * affected ranges and credits, each table in one statement per batch. `writeVulnerabilities` is one
 * long function on purpose: its four numbered steps share the ids the earlier steps returned (products,
 * then vulnerabilities), and they read best in the order the database writes them.
 */

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

export async function writeVulnerabilities(
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
  const { rows: productRows } = await sql.query<{
    id: number;
    kind: string;
    slug: string;
    name: string;
    version: string | null;
  }>(
    `select p.id, p.kind, p.slug, p.name, p.version from products p
     join unnest($2::text[], $3::text[]) as i(kind, slug) on p.kind = i.kind and p.slug = i.slug
     where p.platform_id = $1`,
    [platformId, products.kind, products.slug],
  );
  const productIds = new Map(productRows.map((row) => [productKey(row.kind, row.slug), row.id]));
  const productNamesById = new Map(productRows.map((row) => [row.id, `${row.name} ${row.slug}`]));
  const productVersions = new Map(productRows.map((row) => [row.id, row.version]));
  const productIdOf = (kind: string, slug: string) => {
    const id = productIds.get(productKey(kind, slug));
    if (id === undefined) throw new Error(`product ${kind}/${slug} was not created`);
    return id;
  };

  // Fixed in a later version, inferred from the products' current versions (infer-fixed.ts): written
  // with the record rather than after the import, which would write every such row twice.
  const fixesOf = new Map(
    records.map((record) => {
      const mainId = productIdOf(record.software_type, record.slug);
      const products = record.software.map((item) => {
        const productId = productIdOf(item.software_type, item.slug);
        return {
          current: productVersions.get(productId) ?? null,
          fixedIn: item.fixed_in ?? null,
          main: productId === mainId,
          ranges: item.affected,
        };
      });
      return [record.id, inferRecordFixes(record.fixed_in != null, products)];
    }),
  );

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
      inferredFixedFrom: fixesOf.get(record.id)!.record,
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
    "inferred_fixed_from",
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
       source, source_url, attribution, source_hash, product_kind, search_document, inferred_fixed_from)
     select r.id::uuid, r.slug, r.product_id, r.title, r.description, r.type_label, r.type_code,
       r.owasp_code, r.required_privilege, r.cvss_vector, r.cvss_score, r.cvss_version, r.severity, r.cve,
       r.cwe, r.refs::jsonb, r.fixed_in, r.patched, r.incomplete, r.published_at::timestamptz,
       r.source_updated_at::timestamptz, r.source, r.source_url, r.attribution, r.source_hash,
       r.product_kind,
       setweight(to_tsvector('simple', r.product_text), 'A')
         || to_tsvector('simple', coalesce(r.title, '') || ' ' || coalesce(r.description, '')),
       r.inferred_fixed_from
     from unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int2[],
       $8::int2[], $9::int2[], $10::text[], $11::float8[], $12::text[], $13::text[], $14::text[],
       $15::text[], $16::text[], $17::text[], $18::bool[], $19::bool[], $20::text[], $21::text[],
       $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::text[], $28::text[])
       as r(id, slug, product_id, title, description, type_label, type_code, owasp_code,
         required_privilege, cvss_vector, cvss_score, cvss_version, severity, cve, cwe, refs, fixed_in,
         patched, incomplete, published_at, source_updated_at, source, source_url, attribution,
         source_hash, product_text, product_kind, inferred_fixed_from)
     on conflict (id) do update set
       ${valueColumns.map((column) => `${column} = excluded.${column}`).join(", ")},
       source_hash = excluded.source_hash,
       -- A record listed again is no longer withdrawn (decision 035).
       withdrawn_at = null,
       updated_at = case when ${tuple("v")} is distinct from ${tuple("excluded")}
         or v.withdrawn_at is not null then now() else v.updated_at end
     where ${tuple("v")} is distinct from ${tuple("excluded")}
       or v.source_hash is distinct from excluded.source_hash or v.withdrawn_at is not null
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
      vulnerabilities.inferredFixedFrom,
    ],
  );
  const ids = records.map((record) => record.id);
  // A written record may concern watchers: the alert job compares its fingerprint (decision 031).
  await sql.query(
    `insert into vulnerability_alert_states (vulnerability_id) select unnest($1::uuid[])
     on conflict (vulnerability_id) do update set pending = true where not vulnerability_alert_states.pending`,
    [ids],
  );

  // A record written with a CVE waits for KEV's and EPSS's values (migration 0034).
  await sql.query("select list_cve_signal_checks($1::uuid[])", [ids]);

  // 3. Affected ranges: replaced, one row per range of every software item.
  const ranges = columns(
    records.flatMap((record) =>
      record.software.flatMap((item, itemIndex) =>
        item.affected.map((range, position) => ({
          record,
          item,
          range,
          position,
          inferredFixedFrom: fixesOf.get(record.id)!.ranges[itemIndex]![position] ?? null,
        })),
      ),
    ),
    ({ record, item, range, position, inferredFixedFrom }) => ({
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
      inferredFixedFrom,
    }),
  );
  await sql.query("delete from affected_ranges where vulnerability_id = any($1::uuid[])", [ids]);
  await sql.query(
    `insert into affected_ranges (vulnerability_id, product_id, position, introduced, introduced_inclusive,
       fixed, last_affected, prefix, version, fixed_in, inferred_fixed_from)
     select r.vulnerability_id::uuid, r.product_id, r.position, r.introduced, r.introduced_inclusive, r.fixed,
       r.last_affected, r.prefix, r.version, r.fixed_in, r.inferred_fixed_from
     from unnest($1::text[], $2::int[], $3::int2[], $4::text[], $5::bool[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::text[], $11::text[])
       as r(vulnerability_id, product_id, position, introduced, introduced_inclusive, fixed, last_affected,
         prefix, version, fixed_in, inferred_fixed_from)`,
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
      ranges.inferredFixedFrom,
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
