import type { VulnerabilityDetail } from "./schemas.ts";

/**
 * A vulnerability as an OSV record (schema 1.6.0, https://ossf.github.io/osv-schema/).
 *
 * OSV has no WordPress ecosystem yet: packages use the ecosystem "WordPress" and the name
 * "<kind>/<slug>" (e.g. "plugin/contact-form-7", "core/wordpress"), the way the WordPress.org SVN and
 * most scanners key components. Ranges are ECOSYSTEM ranges compared as WordPress versions.
 */
export const OSV_SCHEMA_VERSION = "1.6.0";
export const OSV_ECOSYSTEM = "WordPress";

type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string };

function eventsOf(range: VulnerabilityDetail["affected"][number]): OsvEvent[] {
  const events: OsvEvent[] = [{ introduced: range.introduced ?? "0" }];
  if (range.fixed) events.push({ fixed: range.fixed });
  else if (range.last_affected && range.last_affected !== "*")
    events.push({ last_affected: range.last_affected });
  else if (range.prefix === "<" && range.version) events.push({ fixed: range.version });
  else if (range.prefix === "<=" && range.version !== "*") events.push({ last_affected: range.version });
  else if (range.prefix === "") events.push({ last_affected: range.version });
  return events;
}

export function toOsv(vulnerability: VulnerabilityDetail, pageUrl: string) {
  const modified = vulnerability.updated_at ?? vulnerability.published_at ?? new Date(0).toISOString();
  const references = [
    { type: "WEB", url: pageUrl },
    ...(vulnerability.source_url ? [{ type: "ADVISORY", url: vulnerability.source_url }] : []),
    ...(vulnerability.cve
      ? [{ type: "ADVISORY", url: `https://www.cve.org/CVERecord?id=${vulnerability.cve}` }]
      : []),
    ...vulnerability.references
      .filter((url) => url !== vulnerability.source_url && /^https?:\/\//.test(url))
      .map((url) => ({ type: "WEB", url })),
  ];
  return {
    schema_version: OSV_SCHEMA_VERSION,
    id: vulnerability.id,
    modified,
    ...(vulnerability.published_at ? { published: vulnerability.published_at } : {}),
    aliases: vulnerability.cve ? [vulnerability.cve] : [],
    summary: vulnerability.title,
    details: vulnerability.description,
    ...(vulnerability.cvss ? { severity: [{ type: "CVSS_V3", score: vulnerability.cvss.vector }] } : {}),
    affected: vulnerability.affected.map((range) => ({
      package: { ecosystem: OSV_ECOSYSTEM, name: `${range.product.kind}/${range.product.slug}` },
      ranges: [{ type: "ECOSYSTEM", events: eventsOf(range) }],
      database_specific: {
        prefix: range.prefix,
        version: range.version,
        ...(range.introduced && !range.introduced_inclusive ? { introduced_exclusive: true } : {}),
        ...(range.fixed_in ? { fixed_in: range.fixed_in } : {}),
      },
    })),
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
    },
  };
}
