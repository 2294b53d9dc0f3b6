import { Autocomplete, VulnerabilitySearchPage } from "@pressguard/domain";
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

/**
 * Issue 17: the search puts the product a query names first (its products, then that product's
 * records, then the other matches), reads abbreviations of vulnerability types, answers a
 * misspelling with "did you mean", and the search box has its suggestions endpoint.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://db.example.test" });
  const records = [
    SMASH_BALLOON_XSS,
    MODERN_EVENTS_SSRF,
    WEB_DIRECTORY_SQLI,
    VIDEO_GALLERY_ALL_VERSIONS,
    CORE_SQLI,
  ];
  const summary = await importVulnerabilities(
    harness.database,
    records.map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
  await harness.database.sql.query(
    "update products set version = '4.0.10', active_installs = 200000 where slug = 'custom-facebook-feed'",
  );
});
afterAll(() => harness.close());

async function search(q: string) {
  const response = await harness.app.inject({
    method: "GET",
    url: `/api/v1/vulnerabilities?q=${encodeURIComponent(q)}`,
  });
  expect(response.statusCode).toBe(200);
  return VulnerabilitySearchPage.parse(response.json());
}

async function suggest(query: string) {
  const response = await harness.app.inject({ method: "GET", url: `/api/v1/autocomplete${query}` });
  return { status: response.statusCode, body: response.json() };
}

describe("GET /api/v1/vulnerabilities?q=, product first", () => {
  it("lists the product a query names, with its state, and its records first", async () => {
    const page = await search("smash balloon");
    expect(page.products[0]).toMatchObject({
      slug: "custom-facebook-feed",
      kind: "plugin",
      version: "4.0.10",
      active_installs: 200000,
      vulnerabilities: 1,
      unfixed: 0,
      url: "https://db.example.test/database/wordpress/plugin/custom-facebook-feed/vulnerabilities/vdp",
    });
    expect(page.records_first?.slug).toBe("custom-facebook-feed");
    expect(page.data[0]?.cve).toBe("CVE-2021-25065");
    expect(page.did_you_mean).toBeNull();
  });

  it("searches a named product's records for the rest of the words, abbreviations read as the type", async () => {
    const page = await search("web directory free sqli");
    expect(page.records_first?.slug).toBe("web-directory-free");
    expect(page.data.map((record) => record.title)).toEqual([
      "Web Directory Free <= 1.6.9 - Unauthenticated SQL Injection",
    ]);
  });

  it("pages through the product's records and then the other matches, each once", async () => {
    const pageOf = async (page: number) => {
      const response = await harness.app.inject({
        method: "GET",
        url: `/api/v1/vulnerabilities?q=wordpress&per_page=1&page=${page}`,
      });
      return VulnerabilitySearchPage.parse(response.json());
    };
    const first = await pageOf(1);
    expect(first.records_first?.slug).toBe("wordpress");
    expect(first.data.map((record) => record.cve)).toEqual(["CVE-2022-21664"]);
    const total = first.pagination.total;
    expect(total).toBeGreaterThan(1);
    const seen = [first.data[0]?.id];
    for (let page = 2; page <= total; page++) {
      const next = await pageOf(page);
      expect(next.pagination.total).toBe(total);
      expect(next.data).toHaveLength(1);
      expect(next.data[0]?.product.slug).not.toBe("wordpress");
      seen.push(next.data[0]?.id);
    }
    expect(new Set(seen).size).toBe(total);
    expect((await pageOf(total + 1)).data).toEqual([]);
  });

  it("answers a misspelt product with did you mean and the records of the product most alike", async () => {
    const page = await search("custom-facebok-feed");
    expect(page.did_you_mean).toBe("Smash Balloon Social Post Feed");
    expect(page.records_first?.slug).toBe("custom-facebook-feed");
    expect(page.data[0]?.cve).toBe("CVE-2021-25065");
  });

  it("names no product for an id, and none for words nothing is like", async () => {
    const byId = await search("cve-2021-25065");
    expect(byId).toMatchObject({ products: [], records_first: null, researchers: [], did_you_mean: null });
    expect(byId.data.map((record) => record.cve)).toEqual(["CVE-2021-25065"]);
    const nothing = await search("zzzzqqqq");
    expect(nothing).toMatchObject({ data: [], products: [], records_first: null, did_you_mean: null });
  });
});

describe("GET /api/v1/autocomplete", () => {
  it("suggests products by the first letters of their words, with their counts", async () => {
    const { status, body } = await suggest("?q=smash%20ball");
    expect(status).toBe(200);
    const products = Autocomplete.parse(body).products;
    expect(products.map((product) => product.slug)).toEqual(["custom-facebook-feed"]);
    expect(products[0]).toMatchObject({ vulnerabilities: 1, unfixed: 0, version: "4.0.10" });
    expect((await suggest("?q=modern%20evnts")).body.products[0]?.slug).toMatch(/^modern-events-calendar/);
  });

  it("suggests nothing for an id or no words, and refuses a text too long", async () => {
    expect((await suggest("?q=CVE-2021-25065")).body).toEqual({ products: [] });
    expect((await suggest("?q=%20%20")).body).toEqual({ products: [] });
    expect((await suggest("")).body).toEqual({ products: [] });
    expect((await suggest(`?q=${"a".repeat(101)}`)).status).toBe(422);
  });
});
