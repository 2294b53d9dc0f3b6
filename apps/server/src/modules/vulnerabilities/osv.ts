import { osvIdOf, packageIdentifiersOf, type VulnerabilityDetail } from "@pressguard/domain";

/**
 * A vulnerability as an OSV record (https://ossf.github.io/osv-schema/), valid without exception
 * against the official JSON schema (shared/schemas/osv-schema.json beside the repository,
 * checked by osv.test.ts for every bundled record). Decisions 009 and 025.
 *
 * The id is `x_PRESSGUARD-<uuid>`: OSV's `x_` prefix for a database without a registered prefix;
 * CVE ids stay in `aliases`. `published` and `modified` come from the row's dates (osvDatesOf).
 *
 * OSV has no WordPress ecosystem. Plugins and themes are named as WPackagist serves them to Composer
 * (ecosystem "Packagist:https://wpackagist.org", name "wpackagist-plugin/<slug>"), and core as the
 * Composer package "roots/wordpress" on Packagist: both carry the WordPress.org version strings
 * unchanged, and they are what a composer.lock names, so OSV tooling can match them. The
 * WordPress.org kind and slug stay in each package's `database_specific`, with the product's other
 * identifiers (packageIdentifiersOf, decision 029): `purl` (`pkg:wordpress/…`), `composer` (the
 * package name) and `cpe` where one is known (core).
 */
const OSV_SCHEMA_VERSION = "1.7.5";
const PACKAGIST_ECOSYSTEM = "Packagist";

type Range = VulnerabilityDetail["affected"][number];
type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string };

/**
 * The OSV package of a WordPress component: its ecosystem, and the Composer package name and Package
 * URL of packageIdentifiersOf (decision 029; Composer names are lower case).
 */
export function osvPackageOf(product: { kind: string; slug: string }) {
  const { composer } = packageIdentifiersOf(product);
  return {
    ecosystem: composer.repository === null ? PACKAGIST_ECOSYSTEM : `Packagist:${composer.repository}`,
    name: composer.name,
    purl: composer.purl,
  };
}

/**
 * The range's bounds as OSV events (the domain's isVersionAffected reads the same fields). OSV's
 * `introduced` is inclusive and an ECOSYSTEM range cannot say "after X": an exclusive lower bound is
 * written as `introduced: X`, which also names X itself (a scanner may flag X, never miss a version
 * that is affected), and the range's `database_specific.introduced_exclusive` says that X is not.
 */
function eventsOf(range: Range): OsvEvent[] {
  const bounded = Boolean(range.fixed) || Boolean(range.last_affected && range.last_affected !== "*");
  // "" X without explicit bounds is exactly version X.
  const exact = !bounded && range.prefix === "" && range.version !== "" && range.version !== "*";
  const events: OsvEvent[] = [{ introduced: range.introduced || (exact ? range.version : "0") }];
  if (range.fixed) events.push({ fixed: range.fixed });
  else if (range.last_affected && range.last_affected !== "*")
    events.push({ last_affected: range.last_affected });
  else if (range.prefix === "<" && range.version) events.push({ fixed: range.version });
  else if (range.prefix === "<=" && range.version && range.version !== "*")
    events.push({ last_affected: range.version });
  else if (exact) events.push({ last_affected: range.version });
  return events;
}

/** Characters RFC 3986 allows in a URI; anything else in a source's link is percent-encoded. */
const NOT_URI_CHARACTER = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g;

/** An absolute http(s) URL as an RFC 3986 URI, or null for anything that is not one. */
export function uriOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.href
    .replace(NOT_URI_CHARACTER, (character) => encodeURIComponent(character))
    .replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
}

const CVSS_TYPES = [
  [/^CVSS:3\.[01]\//, "CVSS_V3"],
  [/^CVSS:4\.0\//, "CVSS_V4"],
] as const;

function severityOf(vector: string) {
  const type = CVSS_TYPES.find(([pattern]) => pattern.test(vector))?.[1];
  return type ? [{ type, score: vector }] : null;
}

/** One `affected` entry per package with all of its ranges, in the order the record lists them. */
function affectedOf(ranges: Range[]) {
  const byProduct = new Map<number, Range[]>();
  for (const range of ranges) {
    const group = byProduct.get(range.product.id);
    if (group) group.push(range);
    else byProduct.set(range.product.id, [range]);
  }
  return [...byProduct.values()].map((group) => {
    const product = group[0]!.product;
    const identifiers = packageIdentifiersOf(product);
    return {
      package: osvPackageOf(product),
      ranges: group.map((range) => ({
        type: "ECOSYSTEM",
        events: eventsOf(range),
        database_specific: {
          prefix: range.prefix,
          version: range.version,
          ...(range.introduced && !range.introduced_inclusive ? { introduced_exclusive: true } : {}),
        },
      })),
      database_specific: {
        platform: product.platform,
        kind: product.kind,
        slug: product.slug,
        name: product.name,
        url: product.url,
        ...(group[0]!.fixed_in ? { fixed_in: group[0]!.fixed_in } : {}),
        purl: identifiers.purl,
        composer: identifiers.composer.name,
        ...(identifiers.cpe ? { cpe: identifiers.cpe } : {}),
      },
    };
  });
}

/** The record's OSV dates (presenters.ts osvDatesOf). */
interface OsvDates {
  published: string;
  modified: string;
}

export function toOsv(vulnerability: VulnerabilityDetail, dates: OsvDates) {
  const pageUrl = vulnerability.url;
  const sourceUrl = vulnerability.source_url ? uriOf(vulnerability.source_url) : null;
  const links = [
    { type: "WEB", url: uriOf(pageUrl) },
    { type: "ADVISORY", url: sourceUrl },
    ...(vulnerability.cve
      ? [{ type: "ADVISORY", url: `https://www.cve.org/CVERecord?id=${vulnerability.cve}` }]
      : []),
    ...vulnerability.references.map((url) => ({ type: "WEB", url: uriOf(url) })),
  ];
  const seen = new Set<string>();
  const references = links.filter((link): link is { type: string; url: string } => {
    if (!link.url || seen.has(link.url)) return false;
    seen.add(link.url);
    return true;
  });
  const severity = vulnerability.cvss ? severityOf(vulnerability.cvss.vector) : null;
  return {
    schema_version: OSV_SCHEMA_VERSION,
    id: osvIdOf(vulnerability.id),
    modified: dates.modified,
    published: dates.published,
    // OSV's own field for a record its source no longer lists (decision 035): kept, and said so.
    ...(vulnerability.withdrawn_at ? { withdrawn: vulnerability.withdrawn_at } : {}),
    aliases: vulnerability.cve ? [vulnerability.cve] : [],
    summary: vulnerability.title,
    details: vulnerability.description,
    ...(severity ? { severity } : {}),
    affected: affectedOf(vulnerability.affected),
    references,
    credits: vulnerability.credits.map((credit) => ({
      name: credit.display_name,
      type: credit.role === "finder" ? "FINDER" : "OTHER",
    })),
    database_specific: {
      source: vulnerability.source,
      source_id: vulnerability.source_id,
      source_url: vulnerability.source_url,
      attribution: vulnerability.attribution,
      url: pageUrl,
      severity: vulnerability.severity,
      cwe: vulnerability.cwe,
      // Issue 34: CISA KEV and FIRST EPSS, as the record answer gives them (null when absent).
      known_exploited: vulnerability.known_exploited,
      epss: vulnerability.epss,
    },
  };
}
