import { formatSupportEnd } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { keptByVersion } from "../../db/kept-by-version.ts";
import { AppError } from "../../errors.ts";
import { securityContactOf } from "../programs/policy.ts";
import { iso, NOT_FOUND_MESSAGES, osvDatesOf, pagePaths } from "../public-records/presenters.ts";
import {
  completeRolieFeedPieces,
  PROVIDER_METADATA_PATH,
  ROLIE_FEED_SIZE,
  type RolieEntry,
  type RolieFeedRef,
  renderProviderMetadata,
  renderRolieFeed,
} from "./csaf-distribution.ts";
import {
  type CsafEntryRow,
  type CsafYearRow,
  createWellKnownQueries,
  type SitemapChunk,
  type SitemapKind,
} from "./queries.ts";
import {
  renderSitemapIndex,
  renderUrlset,
  SITEMAP_MAX_URLS,
  type SitemapEntry,
  urlEntries,
  urlsetClosing,
  urlsetOpening,
} from "./sitemap-xml.ts";
import { renderRobotsTxt, renderSecurityTxt, securityTxtExpiry, utcDayOf } from "./text-files.ts";

/**
 * Rows read per query while a sitemap file is written: short enough that other requests get the
 * embedded database's one connection between batches (~0.2 s a batch of products at 250,000 records).
 */
const SITEMAP_BATCH = 2_000;

/** The reading pages of the public database that take no parameter from the data (apps/web/app/routes.ts). */
const STATIC_PAGES = [
  "/database",
  "/database/vdp",
  "/database/statistics/wordpress",
  "/database/leaderboard",
  "/database/leaderboard/yearly",
  "/database/leaderboard/all-time",
  "/database/about-data",
  "/database/api",
];

/** Where Pressguard's own disclosure process is described (decision 026). */
const POLICY_PATH = "/database/about-data";
const POLICY_ANCHOR = "#disclosure";

const SITEMAP_KINDS: readonly SitemapKind[] = ["products", "vulnerabilities"];

export interface WellKnownOptions {
  database: Database;
  site: { name: string; url: string; indexable: boolean; trailingSlash: boolean };
  /** APP_URL: the CSAF publisher's namespace and the base of the advisories' URLs (decision 029). */
  appUrl?: string;
  /** Entries per ROLIE feed (tests make it small). */
  rolieFeedSize?: number;
  /** Records read per query while the complete ROLIE feed is written (tests make it small). */
  rolieBatchSize?: number;
  /** The Contact lines of the site's security.txt (config.securityContacts). */
  securityContacts: readonly string[];
  /** The public data version: the sitemap's file boundaries are kept while it stands. */
  dataVersion: () => string;
  /** URLs per sitemap file: the protocol's 50,000; tests use a few. */
  sitemapSize?: number;
  now?: () => Date;
}

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** security.txt, robots.txt and the sitemaps (decision 026). */
export function createWellKnownService(options: WellKnownOptions) {
  const { site, sitemapSize = SITEMAP_MAX_URLS, now = () => new Date() } = options;
  const queries = createWellKnownQueries(options.database);
  const base = site.url.replace(/\/+$/, "");
  /** A page's absolute URL, in the form its canonical link has (the site's trailing-slash rule). */
  const pageUrl = (path: string) => `${base}${path.replace(/\/+$/, "")}${site.trailingSlash ? "/" : ""}`;
  const appUrl = (options.appUrl ?? site.url).replace(/\/+$/, "");
  const csafYears = keptByVersion<CsafYearRow[]>(options.dataVersion, 1);
  const yearsOfCsaf = () => csafYears("years", () => queries.csafYears());
  const rolieFeedSize = options.rolieFeedSize ?? ROLIE_FEED_SIZE;
  /** Every feed: each year's advisories in parts of `rolieFeedSize`, oldest year first. */
  const rolieFeeds = async (): Promise<RolieFeedRef[]> =>
    (await yearsOfCsaf()).flatMap(({ year, advisories }) => {
      const parts = Math.max(1, Math.ceil(advisories / rolieFeedSize));
      return Array.from({ length: parts }, (_, index) => ({ year, part: index + 1, parts }));
    });
  const chunksOf = keptByVersion<SitemapChunk[]>(options.dataVersion, SITEMAP_KINDS.length);
  const sitemapChunks = (kind: SitemapKind) => chunksOf(kind, () => queries.sitemapChunks(kind, sitemapSize));
  /**
   * Requests for a file being written wait for that writing rather than start their own: crawlers
   * fetch a sitemap's files together, and the response store keeps a file only once it is sent.
   */
  const writing = new Map<string, Promise<Buffer>>();
  const sitemapUrl = (kind: SitemapKind | "pages", number?: number) =>
    `${base}/sitemap-${kind}${number === undefined ? "" : `-${number}`}.xml`;

  /** One batch of a kind's URLs from a key on, and the key to go on from. */
  async function urlBatch(kind: SitemapKind, from: string, inclusive: boolean, limit: number) {
    if (kind === "products") {
      const rows = await queries.productUrls(Number(from), inclusive, limit);
      const entries = rows.map((row) => ({
        loc: pageUrl(pagePaths.product(row)),
        lastmod: dateOrNull(row.lastmod),
      }));
      return { entries, last: String(rows.at(-1)?.id) };
    }
    const rows = await queries.vulnerabilityUrls(from, inclusive, limit);
    const entries = rows.map((row) => ({
      loc: pageUrl(pagePaths.vulnerability({ ...row, slug: row.product_slug }, row.slug)),
      lastmod: dateOrNull(row.lastmod),
    }));
    return { entries, last: String(rows.at(-1)?.id) };
  }

  /** The URLs of one file, read a batch at a time from its first key and stopped at its count. */
  async function* entriesOf(kind: SitemapKind, chunk: SitemapChunk): AsyncGenerator<SitemapEntry[]> {
    let remaining = chunk.urls;
    let from = chunk.first_key;
    let inclusive = true;
    while (remaining > 0) {
      const limit = Math.min(SITEMAP_BATCH, remaining);
      const { entries, last } = await urlBatch(kind, from, inclusive, limit);
      if (entries.length > 0) yield entries;
      if (entries.length < limit) return;
      remaining -= entries.length;
      from = last;
      inclusive = false;
    }
  }

  async function writeSitemap(kind: SitemapKind, number: number): Promise<Buffer> {
    const chunk = (await sitemapChunks(kind))[number - 1];
    if (!chunk) throw new AppError("not_found", { message: "Sitemap not found." });
    const parts = [Buffer.from(urlsetOpening)];
    for await (const entries of entriesOf(kind, chunk)) parts.push(Buffer.from(urlEntries(entries)));
    parts.push(Buffer.from(urlsetClosing));
    return Buffer.concat(parts);
  }

  /** A feed entry of a record: its advisory's release dates are the record's OSV dates. */
  const rolieEntryOfRow = (row: CsafEntryRow): RolieEntry => {
    const dates = osvDatesOf({
      publishedAt: row.published_at,
      sourceUpdatedAt: row.source_updated_at,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      source: row.source,
      withdrawnAt: row.withdrawn_at,
    });
    return { id: row.id, title: row.title, published: dates.published, updated: dates.modified };
  };

  /** The newest change of any advisory; with none, the start of the UTC day (the files are kept per day). */
  async function newestAdvisoryChange(): Promise<string> {
    const newest = (await yearsOfCsaf())
      .map((row) => (row.updated === null ? null : iso(row.updated)))
      .filter((value): value is string => value !== null)
      .sort()
      .at(-1);
    return newest ?? iso(new Date(`${utcDayOf(now())}T00:00:00Z`))!;
  }

  /** A part of a year's ROLIE feed; not found for a year without advisories or a part past the last. */
  async function writeRolieFeed(year: number, part: number): Promise<Buffer> {
    const feed = (await rolieFeeds()).find((ref) => ref.year === year && ref.part === part);
    if (!feed) throw new AppError("not_found", { message: "No CSAF feed for this year and part." });
    const rows = await queries.csafEntries(year, (part - 1) * rolieFeedSize, rolieFeedSize);
    const entries = rows.map(rolieEntryOfRow);
    return Buffer.from(
      JSON.stringify(renderRolieFeed({ siteUrl: base, appUrl, publisherName: site.name, feed, entries })),
    );
  }

  /**
   * The complete ROLIE feed (every TLP:WHITE advisory, CSAF §7.1.15), read a batch of records at a
   * time in id order, as the sitemaps are, so that other requests get the connection in between.
   */
  async function writeCompleteRolieFeed(): Promise<Buffer> {
    const pieces = completeRolieFeedPieces({
      siteUrl: base,
      appUrl,
      publisherName: site.name,
      updated: await newestAdvisoryChange(),
    });
    const parts = [Buffer.from(pieces.opening)];
    const batch = options.rolieBatchSize ?? SITEMAP_BATCH;
    let after: string | null = null;
    for (;;) {
      const rows = await queries.csafEntriesAfter(after, batch);
      if (rows.length > 0) parts.push(Buffer.from(pieces.entries(rows.map(rolieEntryOfRow))));
      if (rows.length < batch) break;
      after = rows.at(-1)!.id;
    }
    parts.push(Buffer.from(pieces.closing));
    return Buffer.concat(parts);
  }

  /** A file written once however many requests ask for it at the same time (keyed by data version). */
  function writtenOnce(key: string, write: () => Promise<Buffer>): Promise<Buffer> {
    const versioned = `${options.dataVersion()} ${key}`;
    let file = writing.get(versioned);
    if (!file) {
      file = write().finally(() => writing.delete(versioned));
      writing.set(versioned, file);
    }
    return file;
  }

  return {
    /** /.well-known/csaf/provider-metadata.json (CSAF §7.1.7): the publisher, the role, the ROLIE feeds. */
    async getCsafProviderMetadata() {
      return renderProviderMetadata({
        siteUrl: base,
        appUrl,
        publisherName: site.name,
        lastUpdated: await newestAdvisoryChange(),
        feeds: await rolieFeeds(),
      });
    },

    /** Part `part` of the ROLIE feed of the advisories first released in `year`, written once per data version. */
    getRolieFeed(year: number, part: number): Promise<Buffer> {
      return writtenOnce(`rolie ${year}-${part}`, () => writeRolieFeed(year, part));
    },

    /** The ROLIE feed of every TLP:WHITE advisory, written once per data version. */
    getCompleteRolieFeed(): Promise<Buffer> {
      return writtenOnce("rolie", writeCompleteRolieFeed);
    },

    /** /.well-known/security.txt: the same all day (its Expires counts from the start of the UTC day). */
    getSecurityTxt(): string {
      return renderSecurityTxt({
        comments: [
          `${site.name}: coordinated vulnerability disclosure for WordPress plugins, themes and core.`,
          "The Policy page says how a report is checked, sent to the vendor and published.",
        ],
        contacts: options.securityContacts,
        expires: securityTxtExpiry(now()),
        preferredLanguages: "en",
        canonical: `${base}/.well-known/security.txt`,
        policy: `${pageUrl(POLICY_PATH)}${POLICY_ANCHOR}`,
        csaf: `${base}${PROVIDER_METADATA_PATH}`,
      });
    },

    /**
     * The security.txt of an active vendor program, for the vendor's own site: reports go to the
     * product's report form here, under the program's published policy. Not found otherwise.
     */
    async getProgramSecurityTxt(platform: string, kind: string, slug: string): Promise<string> {
      const product = await queries.findActiveProgram(platform, kind, slug);
      if (!product) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      const path = `${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}`;
      const vendor = product.vendor_name ? `, ${product.vendor_name},` : "";
      const contact = securityContactOf(product);
      return renderSecurityTxt({
        comments: [
          `${product.name} (WordPress ${product.kind} ${product.slug}): its vendor${vendor} runs a vulnerability disclosure program on ${site.name}.`,
          contact
            ? `Contact the vendor's security team by e-mail, or report through the form: ${site.name} checks each report and forwards it to the vendor privately.`
            : `Report through the Contact page: ${site.name} checks each report and forwards it to the vendor privately.`,
          ...(product.support_ends_on
            ? [`Security updates until ${formatSupportEnd(product.support_ends_on)}.`]
            : []),
        ],
        // The single point of contact first (RFC 9116 §2.5.3: in order of preference), then the form.
        contacts: [...(contact ? [`mailto:${contact}`] : []), pageUrl(`/database/report/${path}`)],
        expires: securityTxtExpiry(now()),
        preferredLanguages: "en",
        canonical: `${base}/database/${path}/security.txt`,
        policy: pageUrl(`/database/${path}/security-policy/vdp`),
      });
    },

    getRobotsTxt(): string {
      return renderRobotsTxt({ indexable: site.indexable, sitemapUrl: `${base}/sitemap.xml` });
    },

    /** /sitemap.xml: the static pages' sitemap, then every file of the products and the records. */
    async getSitemapIndex(): Promise<string> {
      const files: SitemapEntry[] = [{ loc: sitemapUrl("pages") }];
      for (const kind of SITEMAP_KINDS) {
        for (const chunk of await sitemapChunks(kind))
          files.push({ loc: sitemapUrl(kind, chunk.chunk + 1), lastmod: dateOrNull(chunk.lastmod) });
      }
      return renderSitemapIndex(files);
    },

    getPagesSitemap(): string {
      return renderUrlset(STATIC_PAGES.map((path) => ({ loc: pageUrl(path) })));
    },

    /**
     * File `number` (from 1) of a kind's sitemap, written a batch of rows at a time into a buffer
     * (kept whole by the response store, decision 005). Not found past the last file.
     */
    getSitemap(kind: SitemapKind, number: number): Promise<Buffer> {
      const key = `${options.dataVersion()} ${kind} ${number}`;
      let file = writing.get(key);
      if (!file) {
        file = writeSitemap(kind, number).finally(() => writing.delete(key));
        writing.set(key, file);
      }
      return file;
    },
  };
}

export type WellKnownService = ReturnType<typeof createWellKnownService>;
