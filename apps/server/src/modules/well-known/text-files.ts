/**
 * The plain-text files crawlers and researchers look for (decision 026): security.txt (RFC 9116)
 * and robots.txt (RFC 9309). Pure: the service gives them their URLs, dates and settings.
 */

/** RFC 9116 §2.5.5: Expires less than a year ahead; 180 days keeps it well inside. */
const SECURITY_TXT_LIFETIME_DAYS = 180;

const DAY_MS = 86_400_000;

/** The start of `now`'s UTC day: what the answers of one day share (a cached copy stays right all day). */
function startOfUtcDay(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

/** `2026-11-30`: the UTC day, part of the key the files are kept under (security.txt changes daily). */
export const utcDayOf = (now: Date) => now.toISOString().slice(0, 10);

/** Expires: `SECURITY_TXT_LIFETIME_DAYS` after the start of the current UTC day (RFC 3339, UTC). */
export function securityTxtExpiry(now: Date): Date {
  return new Date(startOfUtcDay(now).getTime() + SECURITY_TXT_LIFETIME_DAYS * DAY_MS);
}

export interface SecurityTxt {
  /** Comment lines at the top, for a reader who opens the file. */
  comments: readonly string[];
  contacts: readonly string[];
  expires: Date;
  canonical: string;
  policy: string;
  preferredLanguages: string;
  /** CSAF 2.0 §7.1.8: the URL of the site's CSAF provider-metadata.json. */
  csaf?: string;
}

/** A field value on one line: a line break in a value would start a field of its own. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

/** An unsigned security.txt (RFC 9116 §2.3: the signature is optional; decision 026 says why none). */
export function renderSecurityTxt(file: SecurityTxt): string {
  return [
    ...file.comments.map((comment) => `# ${oneLine(comment)}`),
    ...file.contacts.map((contact) => `Contact: ${oneLine(contact)}`),
    `Expires: ${file.expires.toISOString()}`,
    `Preferred-Languages: ${oneLine(file.preferredLanguages)}`,
    `Canonical: ${oneLine(file.canonical)}`,
    `Policy: ${oneLine(file.policy)}`,
    ...(file.csaf ? [`CSAF: ${oneLine(file.csaf)}`] : []),
    "",
  ].join("\n");
}

/**
 * Paths crawlers may not enter when the site is indexable: the API, every signed-in area, the
 * report workflow (product forms, PIN previews, confirmations) and the pages reached by e-mailed
 * tokens. Prefix rules (RFC 9309 §2.2.2): `/database/report` covers `/database/report/…`,
 * `/database/report-preview/…` and `/database/report-submitted`; `/vdp/` is the vendor area, not
 * the public `/database/vdp` directory; `/researchers/` is the researcher area, while public
 * profiles live under `/database/researchers/`; `/login` holds only the mailed sign-in links. Paths
 * come from apps/web/app/routes.ts.
 */
const DISALLOWED_PATHS = [
  "/api/",
  "/vdp/",
  "/researchers/",
  "/staff/",
  "/login",
  "/forgot-password",
  "/reset-password/",
  "/forwarding/",
  "/iframe/",
  "/dev/",
  "/database/report",
  "/database/patch-submitted",
  "/database/preview-email",
] as const;

/**
 * The public doors inside those areas, open to crawlers (decision 026, amended for issue 35): the
 * form where anyone reports a vulnerability (only the general one, `$`: not a form per product), the
 * two sign-in pages, where an anonymous visit to any signed-in page is sent, and the vendor's three
 * program lists, where the vendor menu and the sign-in lead (like `/watchlists`, never closed: a
 * crawler only ever gets the redirect to the sign-in page). Registration is not closed at all. A
 * longer match wins (RFC 9309 §2.2.2), so `Allow: /vdp/login` beats `Disallow: /vdp/`.
 */
const ALLOWED_DOORS = [
  "/database/report$",
  "/vdp/login",
  "/researchers/login",
  "/vdp/programs/all$",
  "/vdp/programs/open$",
  "/vdp/programs/pending$",
] as const;

/**
 * robots.txt: everything closed when the site is not indexable (staging, previews), else the public
 * database open and the areas above closed, with the sitemap index named.
 */
export function renderRobotsTxt(options: { indexable: boolean; sitemapUrl: string }): string {
  if (!options.indexable) {
    return [
      "# This site is not to be indexed (SITE_INDEXABLE=false).",
      "User-agent: *",
      "Disallow: /",
      "",
    ].join("\n");
  }
  return [
    "# The public vulnerability database, the report form and the sign-in and registration pages are",
    "# open to crawlers; accounts, the API and the rest of the report workflow are not.",
    "User-agent: *",
    "Allow: /database",
    ...ALLOWED_DOORS.map((path) => `Allow: ${path}`),
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${options.sitemapUrl}`,
    "",
  ].join("\n");
}
