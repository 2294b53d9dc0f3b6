import { OSV_ID_PREFIX } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_SQLI,
} from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { csafErrorsOf } from "../../test/csaf-schema.ts";
import { createWellKnownService } from "./service.ts";

/**
 * The CSAF provider metadata and ROLIE feeds (decision 029) over five real seed records, two of them
 * dated by their source (2021 and 2023), the others by their import: every URL they give resolves on
 * this app, and every advisory a feed lists answers and validates against the official schema.
 */
const SITE = "https://site.example.test";
const APP = "https://app.example.test";
const DATED = [
  { ...SMASH_BALLOON_XSS, published_at: "2021-02-03T04:05:06Z" },
  { ...CORE_SQLI, published_at: "2023-01-06T00:00:00Z", updated_at: "2023-03-01T00:00:00Z" },
];
const RECORDS = [...DATED, MODERN_EVENTS_SSRF, WEB_DIRECTORY_SQLI, VIDEO_GALLERY_ALL_VERSIONS];

let harness: Awaited<ReturnType<typeof createTestApp>>;
const thisYear = new Date().getUTCFullYear();

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: APP, SITE_URL: SITE });
  const summary = await importVulnerabilities(
    harness.database,
    RECORDS.map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
});
afterAll(() => harness.close());

/** Requests a URL of this site or app through the app itself. */
function getUrl(url: string, headers: Record<string, string> = {}) {
  const { origin, pathname, search } = new URL(url);
  expect([SITE, APP]).toContain(origin);
  return harness.app.inject({ method: "GET", url: pathname + search, headers });
}

interface ProviderMetadata {
  canonical_url: string;
  last_updated: string;
  list_on_CSAF_aggregators: boolean;
  mirror_on_CSAF_aggregators: boolean;
  metadata_version: string;
  publisher: { category: string; name: string; namespace: string };
  role: string;
  distributions: { rolie: { feeds: { tlp_label: string; url: string; summary: string }[] } }[];
}

interface RolieFeed {
  feed: {
    id: string;
    title: string;
    link: { rel: string; href: string }[];
    category: { scheme: string; term: string }[];
    updated: string;
    entry: {
      id: string;
      title: string;
      link: { rel: string; href: string }[];
      published: string;
      updated: string;
      content: { type: string; src: string };
      format: { schema: string; version: string };
    }[];
  };
}

async function providerMetadata(): Promise<ProviderMetadata> {
  const response = await harness.app.inject({
    method: "GET",
    url: "/.well-known/csaf/provider-metadata.json",
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  return JSON.parse(response.body);
}

describe("GET /.well-known/csaf/provider-metadata.json", () => {
  it("is CSAF provider metadata 2.0: canonical URL, publisher, role, a TLP:WHITE ROLIE feed per year", async () => {
    const metadata = await providerMetadata();
    expect(metadata).toMatchObject({
      canonical_url: `${SITE}/.well-known/csaf/provider-metadata.json`,
      list_on_CSAF_aggregators: true,
      mirror_on_CSAF_aggregators: true,
      metadata_version: "2.0",
      publisher: { category: "coordinator", namespace: APP },
      role: "csaf_provider",
    });
    expect(Number.isNaN(Date.parse(metadata.last_updated))).toBe(false);
    const feeds = metadata.distributions[0]!.rolie.feeds;
    // A record's year is its source's publication year, else the year it was imported (this one).
    const years = [
      ...new Set(
        RECORDS.map((record) =>
          record.published_at ? new Date(record.published_at).getUTCFullYear() : thisYear,
        ),
      ),
    ].sort();
    expect(years).toEqual(expect.arrayContaining([2021, 2023, thisYear]));
    // First the feed of every TLP:WHITE document (CSAF §7.1.15), then the year feeds (its subsets).
    expect(feeds.map((feed) => feed.url)).toEqual([
      `${SITE}/.well-known/csaf/feed-tlp-white.json`,
      ...years.map((year) => `${SITE}/.well-known/csaf/feed-tlp-white-${year}-1.json`),
    ]);
    expect(feeds.every((feed) => feed.tlp_label === "WHITE" && feed.url.endsWith(".json"))).toBe(true);
    // Its canonical URL is where it is served.
    expect((await getUrl(metadata.canonical_url)).statusCode).toBe(200);
  });

  it("answers 304 to a revalidation", async () => {
    const first = await harness.app.inject({
      method: "GET",
      url: "/.well-known/csaf/provider-metadata.json",
    });
    expect(first.headers["cache-control"]).toBe("public, max-age=3600");
    const again = await harness.app.inject({
      method: "GET",
      url: "/.well-known/csaf/provider-metadata.json",
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe("the ROLIE feeds", () => {
  it("list every record once, in the feed of its initial release year, each advisory answering 200 and valid", async () => {
    const metadata = await providerMetadata();
    const listed: string[] = [];
    for (const { url } of metadata.distributions[0]!.rolie.feeds.filter((feed) =>
      /-1\.json$/.test(feed.url),
    )) {
      const response = await getUrl(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      const { feed } = JSON.parse(response.body) as RolieFeed;
      const year = Number(/(\d{4})-1\.json$/.exec(url)![1]);
      expect(feed.id).toBe(`csaf-feed-tlp-white-${year}-1`);
      expect(feed.link).toEqual([{ rel: "self", href: url }]);
      expect(feed.category).toEqual([
        { scheme: "urn:ietf:params:rolie:category:information-type", term: "csaf" },
      ]);
      expect(feed.entry.length).toBeGreaterThan(0);
      expect(feed.updated).toBe(
        feed.entry
          .map((entry) => entry.updated)
          .sort()
          .at(-1),
      );
      for (const entry of feed.entry) {
        expect(entry.format).toEqual({
          schema: "https://docs.oasis-open.org/csaf/csaf/v2.0/csaf_json_schema.json",
          version: "2.0",
        });
        expect(entry.content.type).toBe("application/json");
        expect(entry.link).toEqual([{ rel: "self", href: entry.content.src }]);
        expect(entry.content.src).toBe(`${APP}/api/v1/csaf/${entry.id.toLowerCase()}.json`);
        expect(new Date(entry.published).getUTCFullYear()).toBe(year);
        const advisory = await getUrl(entry.content.src);
        expect(advisory.statusCode, entry.content.src).toBe(200);
        const document = advisory.json() as {
          document: {
            title: string;
            tracking: { id: string; initial_release_date: string; current_release_date: string };
          };
        };
        expect(csafErrorsOf([document])).toEqual([]);
        expect(document.document.tracking).toMatchObject({
          id: entry.id,
          initial_release_date: entry.published,
          current_release_date: entry.updated,
        });
        expect(document.document.title).toBe(entry.title);
        listed.push(entry.id);
      }
    }
    expect(listed.sort()).toEqual(RECORDS.map((record) => `${OSV_ID_PREFIX}${record.id}`).sort());
  });

  it("include one feed of every TLP:WHITE document, in the provider metadata, with the year feeds' entries (CSAF §7.1.15)", async () => {
    const metadata = await providerMetadata();
    const url = `${SITE}/.well-known/csaf/feed-tlp-white.json`;
    expect(metadata.distributions[0]!.rolie.feeds[0]).toEqual({
      summary: "Every TLP:WHITE advisory of Pressguard.",
      tlp_label: "WHITE",
      url,
    });
    const response = await getUrl(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const { feed } = JSON.parse(response.body) as RolieFeed;
    expect(feed.id).toBe("csaf-feed-tlp-white");
    expect(feed.link).toEqual([{ rel: "self", href: url }]);
    expect(feed.category).toEqual([
      { scheme: "urn:ietf:params:rolie:category:information-type", term: "csaf" },
    ]);
    expect(feed.entry.map((entry) => entry.id)).toEqual(
      RECORDS.map((record) => `${OSV_ID_PREFIX}${record.id}`).sort(),
    );
    expect(feed.updated).toBe(metadata.last_updated);
    // The same entries as the year feeds, each once.
    const yearEntries = [];
    for (const { url: yearUrl } of metadata.distributions[0]!.rolie.feeds.slice(1)) {
      yearEntries.push(...(JSON.parse((await getUrl(yearUrl)).body) as RolieFeed).feed.entry);
    }
    const byId = (left: { id: string }, right: { id: string }) => left.id.localeCompare(right.id);
    expect(feed.entry).toEqual(yearEntries.sort(byId));
    const again = await getUrl(url, { "if-none-match": String(response.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("writes the complete feed a batch of records at a time, every record once, in id order", async () => {
    const service = createWellKnownService({
      database: harness.database,
      site: { name: "Pressguard", url: SITE, indexable: true, trailingSlash: false },
      appUrl: APP,
      securityContacts: ["mailto:security@example.test"],
      dataVersion: () => "complete-test",
      rolieBatchSize: 2,
    });
    const { feed } = JSON.parse((await service.getCompleteRolieFeed()).toString()) as RolieFeed;
    expect(feed.entry.map((entry) => entry.id)).toEqual(
      RECORDS.map((record) => `${OSV_ID_PREFIX}${record.id}`).sort(),
    );
  });

  it("answers 404 for a year without advisories or a part past the last, and no route for a path that is not a year", async () => {
    for (const url of [
      "/.well-known/csaf/feed-tlp-white-1999-1.json",
      "/.well-known/csaf/feed-tlp-white-2021-2.json",
      "/.well-known/csaf/feed-tlp-white-2021-0.json",
    ]) {
      const none = await harness.app.inject({ method: "GET", url });
      expect(none.statusCode, url).toBe(404);
      expect(none.json()).toEqual({ status: "error", message: "No CSAF feed for this year and part." });
    }
    for (const url of [
      "/.well-known/csaf/feed-tlp-white-99-1.json",
      "/.well-known/csaf/feed-tlp-white-2021.json",
    ])
      expect((await harness.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
  });

  it("splits a year into parts of at most the feed size, every record in exactly one part", async () => {
    // Issue 18 review: one year holds most imported records (25,876 of 37,205; ~100 MB at 250,000).
    const small = createWellKnownService({
      database: harness.database,
      site: { name: "Pressguard", url: SITE, indexable: true, trailingSlash: false },
      appUrl: APP,
      securityContacts: ["mailto:security@example.test"],
      dataVersion: () => "split-test",
      rolieFeedSize: 2,
    });
    const [complete, ...feeds] =
      (await small.getCsafProviderMetadata()).distributions?.[0]?.rolie.feeds ?? [];
    expect(complete?.url).toBe(`${SITE}/.well-known/csaf/feed-tlp-white.json`);
    const byYear = new Map<number, number>();
    for (const record of RECORDS) {
      const year = record.published_at ? new Date(record.published_at).getUTCFullYear() : thisYear;
      byYear.set(year, (byYear.get(year) ?? 0) + 1);
    }
    const expected = [...byYear.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([year, count]) =>
        Array.from(
          { length: Math.ceil(count / 2) },
          (_, index) => `${SITE}/.well-known/csaf/feed-tlp-white-${year}-${index + 1}.json`,
        ),
      );
    expect(feeds.map((feed) => feed.url)).toEqual(expected);
    const ids: string[] = [];
    for (const url of expected) {
      const [, year, part] = /(\d{4})-(\d+)\.json$/.exec(url)!;
      const { feed } = JSON.parse(
        (await small.getRolieFeed(Number(year), Number(part))).toString(),
      ) as RolieFeed;
      expect(feed.entry.length).toBeGreaterThan(0);
      expect(feed.entry.length).toBeLessThanOrEqual(2);
      ids.push(...feed.entry.map((entry) => entry.id));
    }
    expect(ids.sort()).toEqual(RECORDS.map((record) => `${OSV_ID_PREFIX}${record.id}`).sort());
  });

  it("is kept per data version: an ETag, 304 on revalidation", async () => {
    const url = "/.well-known/csaf/feed-tlp-white-2021-1.json";
    const first = await harness.app.inject({ method: "GET", url });
    const again = await harness.app.inject({
      method: "GET",
      url,
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});
