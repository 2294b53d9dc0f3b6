import { type Epss, isUuid, type KnownExploited, type ProductRef } from "@pressguard/domain";

/**
 * The public database's shared read model (issue 36): how its rows become the answers of every
 * module that shows records — the page URLs of the web app, the product reference every answer
 * carries, dates in the formats' shapes, the exploitation signals — with no module of its own behind
 * it. A vulnerability's full record is `vulnerabilities/record-detail.ts`.
 */

/** A CVE id: with its uuid and its slug, a key a record is found by. */
export const CVE = /^CVE-\d{4}-\d{4,}$/i;

/** A CVE id as people type it: `CVE-2024-4704`, `cve-2024-4704`, `CVE 2024-4704` or the bare `2024-4704`. */
const TYPED_CVE = /^(?:cve[\s-]?)?(\d{4}-\d{4,})$/i;
/** A CWE id: `CWE-79`, `cwe 79`. */
const TYPED_CWE = /^cwe[\s-]?(\d{1,5})$/i;

/** The record identifier a search text names, if it is one: a CVE id, a record id, a CWE id. */
export function identifierOf(text: string): { cve: string } | { id: string } | { cwe: string } | null {
  const cve = TYPED_CVE.exec(text);
  if (cve) return { cve: `CVE-${cve[1]}` };
  if (isUuid(text)) return { id: text.toLowerCase() };
  const cwe = TYPED_CWE.exec(text);
  if (cwe) return { cwe: `CWE-${Number(cwe[1])}` };
  return null;
}

export const NOT_FOUND_MESSAGES = {
  vulnerability: "Vulnerability not found.",
  product: "Product not found.",
  researcher: "Researcher not found.",
} as const;

/** Public page paths of the web app (apps/web/app/routes.ts). */
export const pagePaths = {
  product: (product: { platform: string; kind: string; slug: string }) =>
    `/database/${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}/vulnerabilities/vdp`,
  vulnerability: (product: { platform: string; kind: string; slug: string }, slug: string) =>
    `/database/${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}/vulnerability/${slug}`,
  researcher: (uuid: string) => `/database/researchers/${uuid}`,
};

export const iso = (value: Date | string | null | undefined) =>
  value == null
    ? null
    : (value instanceof Date ? value : new Date(value)).toISOString().replace(".000Z", "Z");

/** A timestamp column as node-postgres (a `Date`) or some PGlite and raw-SQL paths (a string) return it. */
type Instant = Date | string;
const dateOf = (value: Instant) => (value instanceof Date ? value : new Date(value));

/**
 * When a record became known (decision 025): the source's publication date, else the day it was
 * created here (imported, or published by staff). The OSV record's `published` and the date of its
 * Atom entry: one rule, so that both say the same.
 */
export function firstKnownAt(publishedAt: Instant | null, createdAt: Instant): Date {
  return dateOf(publishedAt ?? createdAt);
}

/** The dates a record's row holds: the source's two and our own two, and where the record comes from. */
interface RecordDates {
  publishedAt: Instant | null;
  sourceUpdatedAt: Instant | null;
  createdAt: Instant;
  updatedAt: Instant;
  /** `pressguard` for a record published here; else the source it was imported from. */
  source: string;
  /** When the record left its source (decision 035): a change every format dates. */
  withdrawnAt?: Instant | null;
}

/** The source of the records published here: their dates are our own. */
const OWN_SOURCE = "pressguard";

/**
 * A record's dates, as every format gives them (decisions 025 and 029, issue 38): the OSV record's
 * `published` and `modified`, the CSAF advisory's initial and current release dates, its ROLIE
 * entry, the sitemap's `lastmod` (`modified`, in SQL: {@link recordModifiedSql}), the record
 * answer's `record_dates` and the page's JSON-LD. One function, so that none disagrees.
 *
 * - `published` is {@link firstKnownAt}: the source's publication date, else the day the record
 *   was created here.
 * - `modified`, for an imported record with a source date: the source's last update, else its
 *   publication (the entry changes when its source changes it; our re-import of an unchanged record
 *   is no change). Otherwise — a record published here, or one whose source gives no date — the
 *   latest of our own changes (its publication, its creation, its last rewrite).
 * - A withdrawn record is modified when it was withdrawn, if that is later (issue 34): OSV clients
 *   that sync by `modified` then see its `withdrawn`.
 * - `modified` is never before `published`, and never a made-up date.
 */
export function osvDatesOf(row: RecordDates): { published: string; modified: string } {
  const published = firstKnownAt(row.publishedAt, row.createdAt);
  const sourceDate = row.source === OWN_SOURCE ? null : (row.sourceUpdatedAt ?? row.publishedAt);
  const candidates = [
    ...(sourceDate != null ? [sourceDate, published] : [row.publishedAt, row.updatedAt, row.createdAt]),
    row.withdrawnAt,
  ];
  const latest = Math.max(...candidates.flatMap((value) => (value == null ? [] : [dateOf(value).getTime()])));
  return { published: iso(published)!, modified: iso(new Date(latest))! };
}

/**
 * {@link osvDatesOf}'s `modified` in SQL, over a `vulnerabilities` row named `v` (the sitemaps, the
 * ROLIE feeds' `updated`): the same rule, so that a sitemap's lastmod is the record's OSV `modified`.
 * (`greatest` skips nulls: a record never withdrawn keeps the date of the rest.)
 */
export const recordModifiedSql = (v = "v") =>
  `greatest(case when ${v}.source <> '${OWN_SOURCE}' and coalesce(${v}.source_updated_at, ${v}.published_at) is not null
     then greatest(coalesce(${v}.source_updated_at, ${v}.published_at), coalesce(${v}.published_at, ${v}.created_at))
     else greatest(${v}.published_at, ${v}.updated_at, ${v}.created_at) end, ${v}.withdrawn_at)`;

/**
 * The directory's last update as stored (`products.directory_updated`, text as WordPress.org writes it:
 * a plugin's "2024-02-07 6:55pm GMT", a theme's "2024-05-30 15:12:00" or "2024-05-30", or ISO 8601)
 * in ISO 8601, UTC; a text it cannot read is answered as written, and nothing as null.
 */
export function directoryDateOf(text: string | null): string | null {
  const value = text?.trim();
  if (!value) return null;
  const valid = (date: Date) => (Number.isNaN(date.getTime()) ? value : iso(date));
  const twelveHour = /^(\d{4}-\d{2}-\d{2}) (\d{1,2}):(\d{2})\s*([ap]m)(?: GMT| UTC)?$/i.exec(value);
  if (twelveHour) {
    const [, day, hours, minutes, half] = twelveHour;
    const hour = (Number(hours) % 12) + (half!.toLowerCase() === "pm" ? 12 : 0);
    return valid(new Date(`${day}T${String(hour).padStart(2, "0")}:${minutes}:00Z`));
  }
  const dayTime =
    /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2}|GMT|UTC)?$/i.exec(
      value,
    );
  if (!dayTime) return value;
  const [, day, time = "00:00", seconds = ":00", zone = "Z"] = dayTime;
  const offset = /^(z|gmt|utc)$/i.test(zone) ? "Z" : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  return valid(new Date(`${day}T${time}${seconds}${offset}`));
}

/**
 * The stored CISA KEV listing (a jsonb the KEV sync writes) as the API answers it: exactly its three
 * fields, or null when there is none or it lacks its date (a bad value never breaks an answer).
 */
export function knownExploitedOf(value: unknown): KnownExploited | null {
  if (typeof value !== "object" || value === null) return null;
  const stored = value as Record<string, unknown>;
  if (typeof stored.date_added !== "string") return null;
  return {
    date_added: stored.date_added,
    due_date: typeof stored.due_date === "string" ? stored.due_date : null,
    ransomware: stored.ransomware === "Known" ? "Known" : "Unknown",
  };
}

/** The stored FIRST EPSS score as the API answers it: its three fields, or null. */
export function epssOf(value: unknown): Epss | null {
  if (typeof value !== "object" || value === null) return null;
  const stored = value as Record<string, unknown>;
  const score = Number(stored.score);
  const percentile = Number(stored.percentile);
  if (stored.score == null || stored.percentile == null) return null;
  if (!Number.isFinite(score) || !Number.isFinite(percentile)) return null;
  return { score, percentile, date: typeof stored.date === "string" ? stored.date : "" };
}

export const productRefOf = (
  appUrl: string,
  row: { productId: number; platform: string; kind: string; slug: string; name: string },
) =>
  ({
    id: row.productId,
    platform: row.platform,
    kind: row.kind,
    slug: row.slug,
    name: row.name,
    url: appUrl + pagePaths.product(row),
  }) satisfies ProductRef;
