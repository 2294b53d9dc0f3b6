import {
  compareVersions,
  csafFileNameOf,
  DEFIANT_LICENSE,
  describeAffectedRange,
  describeEpss,
  describeKnownExploited,
  EPSS_EXPLANATION,
  EPSS_URL,
  KEV_CATALOG_URL,
  MITRE_ATTRIBUTION,
  MITRE_CVE_LICENSE,
  MITRE_TERMS_URL,
  osvIdOf,
  packageIdentifiersOf,
  parseCvssVector,
  type RangeBounds,
  type VulnerabilityDetail,
  WORDFENCE_ATTRIBUTION,
  WORDFENCE_LICENSE_URL,
  WORDFENCE_TRADEMARK_NOTICE,
} from "@pressguard/domain";
import { uriOf } from "./osv.ts";

/**
 * A published vulnerability as a CSAF 2.0 security advisory (OASIS Common Security Advisory
 * Framework, `document.category` "csaf_security_advisory"), valid against the official schema
 * (../shared/schemas/csaf-2.0, checked by csaf.test.ts and, on a sample of the bundled records, by
 * osv.test.ts). Decision 029.
 *
 * - `tracking.id` is the record's OSV id (`x_PRESSGUARD-<uuid>`, decision 025): one id across formats.
 *   The document's file name (CSAF §5.1) is that id in lower case with `.json`; the advisory is served
 *   at `/api/v1/csaf/<file name>`, the URL the ROLIE feeds list.
 * - Dates are the OSV record's (osvDatesOf): `initial_release_date` = `published`,
 *   `current_release_date` = `modified`. We keep no history of a record: the revision history has the
 *   first release and, when the record changed since, one revision at its last change.
 * - Product tree: vendor (the product's author, "WordPress" for core, else "Unknown vendor") →
 *   product_name → one `product_version_range` per affected range (a `vers` string with every bound)
 *   and one `product_version` per fixed version, each with the purl (and for core the CPE) of
 *   `packageIdentifiersOf`.
 * - The source's attribution and licence texts are kept in a `legal_disclaimer` note and in
 *   `distribution.text` (the Wordfence licence asks for them, and a link to the record, in any copy).
 * - Exploitation (issue 34): a CVE in CISA's KEV catalog is a `threats` entry of category
 *   `exploit_status` dated when CISA added it; the FIRST EPSS score is a note of the vulnerability
 *   (CSAF 2.0's `scores` hold CVSS only).
 * - A withdrawn record (decision 035) keeps `tracking.status` final (CSAF 2.0 has no withdrawn
 *   status): a `general` note says it was withdrawn and when, and its last revision is the withdrawal.
 */

export const CSAF_VERSION = "2.0";
export const CSAF_SCHEMA_URL = "https://docs.oasis-open.org/csaf/csaf/v2.0/csaf_json_schema.json";
export const TLP_URL = "https://www.first.org/tlp/";
const WORDFENCE_SOURCE = "wordfence-intelligence";

/** The path of a record's advisory on the API: `/api/v1/csaf/<file name>`. */
export const csafPathOf = (recordId: string) => `/api/v1/csaf/${csafFileNameOf(recordId)}`;

/**
 * The order of a CSAF document's keys: alphabetical, as the reference validator compares them
 * (recommended test 6.2.13, `Intl.Collator`; `_` sorts before letters, so `product_id` comes
 * before `product_identification_helper`).
 */
const KEY_ORDER = new Intl.Collator("en");

/** A JSON value with the keys of every object in {@link KEY_ORDER} (CSAF test 6.2.13); arrays keep their order. */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([left], [right]) => KEY_ORDER.compare(left, right))
      .map(([key, item]) => [key, sortedKeys(item)]),
  ) as T;
}

/**
 * The `JSON.stringify` replacer of a CSAF answer: every object with its keys sorted. The zod
 * serializer of a route writes the keys its schema declares first, which would undo the order
 * {@link sortedKeys} gave the document.
 */
export function sortedKeysReplacer(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([left], [right]) => KEY_ORDER.compare(left, right)));
}

type Range = VulnerabilityDetail["affected"][number];

export interface CsafContext {
  /** APP_URL: the publisher's namespace and the base of the API's URLs. */
  appUrl: string;
  /** The publisher's name (the site's name). */
  publisherName: string;
  /** The record's OSV dates (presenters.ts osvDatesOf). */
  dates: { published: string; modified: string };
  /** A CWE id's name in MITRE's list (cwe-names.ts); null when unknown, and then no `cwe` is written. */
  cweName: (id: string) => string | null;
  /** The author of each affected product (products.author), by product id. */
  authors?: ReadonlyMap<number, string | null>;
}

interface Bound {
  version: string;
  inclusive: boolean;
}

/**
 * The bounds of a range, read as the OSV mapping and the domain's isVersionAffected read them: an
 * optional lower bound (inclusive unless `introduced_inclusive` is false), an optional upper bound
 * (`fixed` exclusive, `last_affected` inclusive, else the prefix and version), or one exact version.
 */
function boundsOf(range: RangeBounds): { lower?: Bound; upper?: Bound; exact?: string } {
  const lower =
    range.introduced && range.introduced !== "0"
      ? { version: range.introduced, inclusive: range.introduced_inclusive !== false }
      : undefined;
  const upper: Bound | undefined = range.fixed
    ? { version: range.fixed, inclusive: false }
    : range.last_affected && range.last_affected !== "*"
      ? { version: range.last_affected, inclusive: true }
      : range.prefix === "<" && range.version
        ? { version: range.version, inclusive: false }
        : range.prefix === "<=" && range.version && range.version !== "*"
          ? { version: range.version, inclusive: true }
          : undefined;
  if (!lower && !upper && range.prefix === "" && range.version && range.version !== "*") {
    return { exact: range.version };
  }
  if (lower && upper && lower.inclusive && upper.inclusive && lower.version === upper.version) {
    return { exact: lower.version };
  }
  return { ...(lower && { lower }), ...(upper && { upper }) };
}

/**
 * The first fixed version of a range: its exclusive upper bound, else the product's fixed version
 * (`fixed_in`, from the source or the CVE record) when it is past the range. A product's fixed_in is
 * kept on each of its ranges, and for core it fixes one branch: 5.8.3 does not fix "exactly 5.9".
 */
function fixedVersionOf(range: Range): string | null {
  if (range.fixed) return range.fixed;
  if (!range.fixed_in) return null;
  const { upper, exact } = boundsOf(range);
  const last = exact ?? upper?.version;
  return last && compareVersions(range.fixed_in, last) > 0 ? range.fixed_in : null;
}

/** A version inside a `vers` string: the characters vers uses as separators percent-encoded. */
const versVersion = (version: string) => encodeURIComponent(version).replace(/%2B/g, "+");

/** The `vers` type of a product: its purl's type (`wordpress` for plugins and themes, `composer` for core). */
const versTypeOf = (purl: string) => purl.slice("pkg:".length, purl.indexOf("/"));

/** A range as a `vers` string (`vers:wordpress/>=1.0|<2.0`), which CSAF recommends for a version range. */
export function versOf(range: RangeBounds, purl: string): string {
  const { lower, upper, exact } = boundsOf(range);
  const constraints = exact
    ? [versVersion(exact)]
    : [
        ...(lower ? [`${lower.inclusive ? ">=" : ">"}${versVersion(lower.version)}`] : []),
        ...(upper ? [`${upper.inclusive ? "<=" : "<"}${versVersion(upper.version)}`] : []),
      ];
  return `vers:${versTypeOf(purl)}/${constraints.length > 0 ? constraints.join("|") : "*"}`;
}

/** The identification helper of a product, or of one of its versions: purl, and the CPE where known. */
export function helperOf(product: { kind: string; slug: string }, version?: string) {
  const identifiers = packageIdentifiersOf(product, version);
  return { purl: identifiers.purl, ...(identifiers.cpe ? { cpe: identifiers.cpe } : {}) };
}

const vendorOf = (product: Range["product"], authors?: ReadonlyMap<number, string | null>) =>
  product.kind === "core" ? "WordPress" : authors?.get(product.id)?.trim() || "Unknown vendor";

/** Links as RFC 3986 URIs, each once, in order; anything that is not an http(s) URL is left out. */
function referencesOf(links: { url: string | null; summary: string; category: "self" | "external" }[]) {
  const seen = new Set<string>();
  return links.flatMap((link) => {
    const url = link.url ? uriOf(link.url) : null;
    if (!url || seen.has(url)) return [];
    seen.add(url);
    return [{ category: link.category, summary: link.summary, url }];
  });
}

/** The source's attribution and licence texts, which every copy of its records must carry. */
function licenceTextOf(vulnerability: VulnerabilityDetail, publisherName: string): string {
  const parts = [vulnerability.attribution ?? `Published by ${publisherName}.`];
  if (vulnerability.source === WORDFENCE_SOURCE) {
    if (vulnerability.source_url) parts.push(`Source record: ${vulnerability.source_url}`);
    parts.push(
      `${WORDFENCE_ATTRIBUTION} (${WORDFENCE_LICENSE_URL}).`,
      DEFIANT_LICENSE,
      WORDFENCE_TRADEMARK_NOTICE,
    );
  }
  if (vulnerability.cve) parts.push(`${MITRE_ATTRIBUTION} (${MITRE_TERMS_URL}).`, MITRE_CVE_LICENSE);
  return parts.join("\n\n");
}

interface ProductNode {
  category: string;
  name: string;
  product: {
    name: string;
    product_id: string;
    product_identification_helper: { purl: string; cpe?: string };
  };
}

/** The CVSS v3 score of a vector, with the base score and severity computed from it (CSAF test 6.1.9). */
export function cvssV3Of(vector: string) {
  const parsed = parseCvssVector(vector);
  if (!parsed.ok) return null;
  return {
    version: parsed.version,
    vectorString: parsed.vector,
    baseScore: parsed.baseScore,
    baseSeverity: parsed.severity.toUpperCase(),
  };
}

/** The publisher block of every document Pressguard writes: the site, as coordinator. */
export function csafPublisherOf(appUrl: string, publisherName: string) {
  return {
    category: "coordinator",
    name: publisherName,
    namespace: appUrl,
    contact_details: `Report a vulnerability: ${appUrl}/database/report. Security contact: ${appUrl}/.well-known/security.txt.`,
  };
}

/**
 * The advisory of a record: its keys sorted (recommended test 6.2.13), its canonical URL (the
 * `self` reference ending in its file name, test 6.2.11) first among its references.
 */
export function toCsaf(vulnerability: VulnerabilityDetail, context: CsafContext) {
  return sortedKeys(advisoryOf(vulnerability, context));
}

function advisoryOf(vulnerability: VulnerabilityDetail, context: CsafContext) {
  const { appUrl, dates } = context;
  const trackingId = osvIdOf(vulnerability.id);

  // Group the ranges by product, in the order the record lists them (as the OSV record does).
  const byProduct = new Map<number, Range[]>();
  for (const range of vulnerability.affected) {
    const group = byProduct.get(range.product.id);
    if (group) group.push(range);
    else byProduct.set(range.product.id, [range]);
  }

  const affectedIds: string[] = [];
  const fixedIds: string[] = [];
  const remediations: {
    category: "vendor_fix" | "none_available";
    details: string;
    product_ids: string[];
    url?: string;
  }[] = [];
  const vendors = new Map<string, { category: string; name: string; branches: unknown[] }[]>();

  for (const [productId, ranges] of byProduct) {
    const product = ranges[0]!.product;
    const productKey = `${product.kind}-${productId}`;
    const productUrl = uriOf(product.url) ?? undefined;
    const rangeNodes: ProductNode[] = [];
    const versionNodes = new Map<string, ProductNode>();
    const versionId = (version: string) => {
      let node = versionNodes.get(version);
      if (!node) {
        node = {
          category: "product_version",
          name: version,
          product: {
            name: `${product.name} ${version}`,
            product_id: `${productKey}-v${versionNodes.size + 1}`,
            product_identification_helper: helperOf(product, version),
          },
        };
        versionNodes.set(version, node);
      }
      return node.product.product_id;
    };

    ranges.forEach((range, index) => {
      const helper = helperOf(product);
      const rangeId = `${productKey}-r${index + 1}`;
      rangeNodes.push({
        category: "product_version_range",
        name: versOf(range, helper.purl),
        product: {
          name: `${product.name} ${describeAffectedRange(range)}`,
          product_id: rangeId,
          product_identification_helper: helper,
        },
      });
      affectedIds.push(rangeId);
      const fixedVersion = fixedVersionOf(range);
      if (fixedVersion) {
        fixedIds.push(versionId(fixedVersion));
        remediations.push({
          category: "vendor_fix",
          details: `Update ${product.name} to ${fixedVersion} or later.`,
          product_ids: [rangeId],
          ...(productUrl && { url: productUrl }),
        });
      } else if (range.inferred_fixed_from) {
        // The product's current version is past the range: a later version fixed it (issue 17).
        fixedIds.push(versionId(range.inferred_fixed_from));
        remediations.push({
          category: "vendor_fix",
          details:
            `Update ${product.name} to its current version, ${range.inferred_fixed_from}, or later: it is ` +
            "past every affected version, so a version after the range fixed the vulnerability " +
            "(inferred; the first fixed version is not known).",
          product_ids: [rangeId],
          ...(productUrl && { url: productUrl }),
        });
      } else if (vulnerability.patched && !vulnerability.fixed_in) {
        // The source says patched without a version (no range of the record names one).
        remediations.push({
          category: "vendor_fix",
          details: `A fixed version of ${product.name} exists, but which version first fixed it is not known: update to the latest version.`,
          product_ids: [rangeId],
          ...(productUrl && { url: productUrl }),
        });
      } else {
        remediations.push({
          category: "none_available",
          details: `No fixed version of ${product.name} is known.`,
          product_ids: [rangeId],
        });
      }
    });

    const vendor = vendorOf(product, context.authors);
    const productBranch = {
      category: "product_name",
      name: product.name,
      branches: [...rangeNodes, ...versionNodes.values()],
    };
    const branches = vendors.get(vendor);
    if (branches) branches.push(productBranch);
    else vendors.set(vendor, [productBranch]);
  }

  const cvss = vulnerability.cvss ? cvssV3Of(vulnerability.cvss.vector) : null;
  const cweName = vulnerability.cwe ? context.cweName(vulnerability.cwe) : null;
  const osvUrl = `${appUrl}/api/v1/osv/${trackingId}`;
  const licence = licenceTextOf(vulnerability, context.publisherName);
  const description = vulnerability.description.trim() || vulnerability.title;
  const changed = dates.modified !== dates.published;
  const withdrawn = vulnerability.withdrawn_at;
  const withdrawnNote = withdrawn
    ? `This advisory was withdrawn on ${withdrawn.slice(0, 10)}: its source no longer lists the vulnerability. ` +
      "It is kept for reference; do not act on it."
    : null;
  const kev = vulnerability.known_exploited;
  const epss = vulnerability.epss;

  return {
    document: {
      category: "csaf_security_advisory",
      csaf_version: CSAF_VERSION,
      lang: "en",
      title: vulnerability.title,
      publisher: csafPublisherOf(appUrl, context.publisherName),
      ...(vulnerability.severity ? { aggregate_severity: { text: vulnerability.severity } } : {}),
      distribution: { text: licence, tlp: { label: "WHITE", url: TLP_URL } },
      notes: [
        { category: "description", title: "Description", text: description },
        ...(withdrawnNote ? [{ category: "general", title: "Withdrawn", text: withdrawnNote }] : []),
        { category: "legal_disclaimer", title: "Source, attribution and licence", text: licence },
      ],
      references: referencesOf([
        {
          category: "self",
          summary: "This advisory (its canonical URL)",
          url: `${appUrl}${csafPathOf(vulnerability.id)}`,
        },
        {
          category: "self",
          summary: `The vulnerability's page on ${context.publisherName}`,
          url: vulnerability.url,
        },
        { category: "self", summary: "The vulnerability as an OSV record", url: osvUrl },
        { category: "external", summary: "The source's record", url: vulnerability.source_url },
      ]),
      tracking: {
        id: trackingId,
        status: "final",
        version: changed ? "2" : "1",
        initial_release_date: dates.published,
        current_release_date: dates.modified,
        revision_history: [
          { date: dates.published, number: "1", summary: "First published." },
          ...(changed
            ? [
                {
                  date: dates.modified,
                  number: "2",
                  summary: withdrawnNote
                    ? "Withdrawn: its source no longer lists the vulnerability (earlier versions of the record are not kept)."
                    : "The record as last changed by its source or here (earlier versions of the record are not kept).",
                },
              ]
            : []),
        ],
        generator: { engine: { name: context.publisherName } },
      },
    },
    product_tree: {
      branches: [...vendors].map(([name, branches]) => ({ category: "vendor", name, branches })),
    },
    vulnerabilities: [
      {
        ...(vulnerability.cve ? { cve: vulnerability.cve } : {}),
        ...(vulnerability.cwe && cweName ? { cwe: { id: vulnerability.cwe, name: cweName } } : {}),
        title: vulnerability.title,
        ...(vulnerability.source_id && vulnerability.source === WORDFENCE_SOURCE
          ? { ids: [{ system_name: "Wordfence Intelligence", text: vulnerability.source_id }] }
          : {}),
        notes: [
          { category: "description", title: "Description", text: description },
          ...(vulnerability.type_label
            ? [{ category: "summary", title: "Type", text: vulnerability.type_label }]
            : []),
          ...(epss
            ? [
                {
                  category: "other",
                  title: "EPSS",
                  text: `EPSS score ${describeEpss(epss)}. ${EPSS_EXPLANATION} (${EPSS_URL})`,
                },
              ]
            : []),
        ],
        ...(kev
          ? {
              threats: [
                {
                  category: "exploit_status",
                  ...(/^\d{4}-\d{2}-\d{2}$/.test(kev.date_added)
                    ? { date: `${kev.date_added}T00:00:00Z` }
                    : {}),
                  details: `${describeKnownExploited(kev)} Source: CISA KEV (${KEV_CATALOG_URL}).`,
                  product_ids: affectedIds,
                },
              ],
            }
          : {}),
        release_date: dates.published,
        product_status: {
          known_affected: affectedIds,
          ...(fixedIds.length > 0 ? { fixed: [...new Set(fixedIds)] } : {}),
        },
        remediations,
        ...(cvss ? { scores: [{ cvss_v3: cvss, products: affectedIds }] } : {}),
        ...(vulnerability.credits.length > 0
          ? {
              acknowledgments: vulnerability.credits.map((credit) => ({
                names: [credit.display_name],
                ...(uriOf(credit.url) ? { urls: [uriOf(credit.url)!] } : {}),
                ...(credit.role !== "finder" ? { summary: credit.role } : {}),
              })),
            }
          : {}),
        references: referencesOf([
          { category: "external", summary: "The source's record", url: vulnerability.source_url },
          ...(vulnerability.cve
            ? [
                {
                  category: "external" as const,
                  summary: `${vulnerability.cve} on cve.org`,
                  url: `https://www.cve.org/CVERecord?id=${vulnerability.cve}`,
                },
              ]
            : []),
          ...vulnerability.references.map((url) => ({
            category: "external" as const,
            summary: "A reference of the source",
            url,
          })),
        ]),
      },
    ],
  };
}

export type CsafAdvisory = ReturnType<typeof toCsaf>;
