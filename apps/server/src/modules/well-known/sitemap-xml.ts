/** The XML of sitemaps and the sitemap index (https://www.sitemaps.org/protocol.html). */

/** The protocol's limit of URLs per sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** Entity-escaped text (the protocol asks for `&`, `'`, `"`, `>` and `<` escaped in URLs). */
export function xmlText(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

export interface SitemapEntry {
  loc: string;
  /** When the page (or the child sitemap's newest page) last changed, when known. */
  lastmod?: Date | null;
}

/**
 * W3C Datetime as the records' other dates are written (presenters.ts `iso`): milliseconds only when
 * there are any, so that a record's lastmod is its OSV `modified`, character for character.
 */
const datetime = (date: Date) => date.toISOString().replace(/\.000Z$/, "Z");

function entryXml(tag: "url" | "sitemap", entry: SitemapEntry): string {
  const lastmod = entry.lastmod ? `<lastmod>${datetime(entry.lastmod)}</lastmod>` : "";
  return `<${tag}><loc>${xmlText(entry.loc)}</loc>${lastmod}</${tag}>\n`;
}

export const urlsetOpening = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NAMESPACE}">\n`;
export const urlsetClosing = "</urlset>\n";

/** `<url>` elements, one per line. */
export function urlEntries(entries: readonly SitemapEntry[]): string {
  return entries.map((entry) => entryXml("url", entry)).join("");
}

/** A whole sitemap of few entries (the static pages). */
export function renderUrlset(entries: readonly SitemapEntry[]): string {
  return urlsetOpening + urlEntries(entries) + urlsetClosing;
}

/** The sitemap index: the child sitemaps, each with the newest `lastmod` of its URLs when known. */
export function renderSitemapIndex(sitemaps: readonly SitemapEntry[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<sitemapindex xmlns="${NAMESPACE}">\n`,
    ...sitemaps.map((sitemap) => entryXml("sitemap", sitemap)),
    "</sitemapindex>\n",
  ].join("");
}
