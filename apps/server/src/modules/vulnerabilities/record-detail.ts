import {
  describeAffectedRange,
  owaspCategoryByCode,
  parseCvssVector,
  type VulnerabilityDetail,
  vulnerabilityTypeByCode,
  wordPressRoleByCode,
} from "@pressguard/domain";
import {
  epssOf,
  iso,
  knownExploitedOf,
  osvDatesOf,
  pagePaths,
  productRefOf,
} from "../public-records/presenters.ts";
import type { CreditRow, RangeRow, VulnerabilityQueries } from "./queries.ts";

/** A vulnerability's full record from its rows: its page's answer, its OSV record's and the OSV export's. */
type DetailRow = Awaited<ReturnType<VulnerabilityQueries["vulnerabilityBatch"]>>[number];

export function detailOf(
  appUrl: string,
  row: DetailRow,
  ranges: RangeRow[],
  creditRows: CreditRow[],
): VulnerabilityDetail {
  const product = productRefOf(appUrl, {
    productId: row.productId,
    platform: row.platform,
    kind: row.productKind,
    slug: row.productSlug,
    name: row.productName,
  });
  const type = row.typeCode == null ? null : vulnerabilityTypeByCode.get(row.typeCode);
  const owasp = row.owaspCode == null ? null : owaspCategoryByCode.get(row.owaspCode);
  const role = row.requiredPrivilege == null ? null : wordPressRoleByCode.get(row.requiredPrivilege);
  const cvss = row.cvssVector ? parseCvssVector(row.cvssVector) : null;
  const mainRange = ranges.find((range) => range.productId === row.productId);
  return {
    id: row.id,
    slug: row.slug,
    url: appUrl + pagePaths.vulnerability(product, row.slug),
    title: row.title,
    description: row.description,
    cve: row.cve,
    cwe: row.cwe,
    severity: row.severity,
    cvss_score: row.cvssScore == null ? null : Number(row.cvssScore),
    type: type ? { code: type.code, label: type.label } : null,
    type_label: row.typeLabel,
    owasp: owasp ? { code: owasp.code, id: owasp.id, label: owasp.label } : null,
    required_privilege: role ? { code: role.code, label: role.label } : null,
    cvss:
      cvss?.ok === true
        ? {
            vector: cvss.vector,
            version: cvss.version,
            score: row.cvssScore == null ? cvss.baseScore : Number(row.cvssScore),
            severity: row.severity ?? cvss.severity,
            metrics: { ...cvss.metrics },
          }
        : null,
    references: row.references,
    patched: row.patched,
    fixed_in: row.fixedIn,
    inferred_fixed_from: row.inferredFixedFrom,
    affected_versions: mainRange
      ? describeAffectedRange({
          prefix: mainRange.prefix,
          version: mainRange.version,
          introduced: mainRange.introduced,
          introduced_inclusive: mainRange.introducedInclusive,
          fixed: mainRange.fixed,
          last_affected: mainRange.lastAffected,
        })
      : null,
    affected: ranges.map((range) => ({
      product: productRefOf(appUrl, range),
      introduced: range.introduced,
      introduced_inclusive: range.introducedInclusive,
      fixed: range.fixed,
      last_affected: range.lastAffected,
      prefix: range.prefix,
      version: range.version,
      fixed_in: range.fixedIn,
      inferred_fixed_from: range.inferredFixedFrom,
    })),
    affected_possibly_incomplete: row.affectedPossiblyIncomplete,
    credits: creditRows.map((credit) => ({
      uuid: credit.uuid,
      display_name: credit.displayName,
      role: credit.role,
      url: appUrl + pagePaths.researcher(credit.uuid),
    })),
    published_at: iso(row.publishedAt),
    known_exploited: knownExploitedOf(row.knownExploited),
    epss: epssOf(row.epss),
    updated_at: iso(row.sourceUpdatedAt) ?? iso(row.publishedAt),
    record_dates: osvDatesOf(row),
    product,
    source: row.source,
    source_id: row.source === "pressguard" ? null : row.id,
    source_url: row.sourceUrl,
    attribution: row.attribution,
    withdrawn_at: iso(row.withdrawnAt),
  };
}
