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

/** GET /api/v1/products: the report form's product picker (PRODUCT.md §3), over real seed records. */
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
});
afterAll(() => harness.close());

async function search(query: string) {
  const response = await harness.app.inject({ method: "GET", url: `/api/v1/products${query}` });
  return { status: response.statusCode, body: response.json() };
}
const slugs = (body: { data: { slug: string }[] }) => body.data.map((item) => item.slug);

describe("GET /api/v1/products", () => {
  it("finds a product through a typo in its name or slug when nothing starts so", async () => {
    const found = async (q: string) => slugs((await search(`?q=${encodeURIComponent(q)}`)).body);
    expect((await found("web directry"))[0]).toBe("web-directory-free");
    expect((await found("custom-facebok-feed"))[0]).toBe("custom-facebook-feed");
    expect(await found("modern evnts calendar")).toContain("modern-events-calendar-lite");
    expect(await found("zzzzqqqq")).toEqual([]);
  });

  it("finds a product by the first letters of its name's words, with its counters", async () => {
    const { status, body } = await search("?q=web%20direc");
    expect(status).toBe(200);
    expect(slugs(body)).toEqual(["web-directory-free"]);
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      platform: "wordpress",
      kind: "plugin",
      slug: "web-directory-free",
      name: "Web Directory Free",
      url: "https://db.example.test/database/wordpress/plugin/web-directory-free/vulnerabilities/vdp",
      is_active: false,
      is_lobby_product: false,
      vulnerabilities: 1,
    });
    expect(body.pagination).toMatchObject({ current_page: 1, total: 1, next_page_url: null });
  });

  it("finds a product by its slug, the exact slug first", async () => {
    const { body } = await search("?q=modern-events-calendar");
    expect(slugs(body)[0]).toBe("modern-events-calendar");
    expect(slugs(body)).toContain("modern-events-calendar-lite");
  });

  it("filters by kind", async () => {
    expect(slugs((await search("?q=wordpress&kind=core")).body)).toEqual(["wordpress"]);
    expect(slugs((await search("?q=web%20directory&kind=theme")).body)).toEqual([]);
  });

  it("treats the query's punctuation as text, never as search operators", async () => {
    for (const q of ["a & | ! :*", "'); drop table products; --", "(((", "web:* | wordpress"]) {
      const { status } = await search(`?q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
    }
    expect(slugs((await search(`?q=${encodeURIComponent("web:* | !directory")}`)).body)).toEqual([
      "web-directory-free",
    ]);
  });

  it("pages through every product with next_page_url keeping the query", async () => {
    const first = (await search("?per_page=2&kind=plugin")).body;
    expect(first.data).toHaveLength(2);
    expect(first.pagination.next_page_url).toBe("/api/v1/products?per_page=2&kind=plugin&page=2");
  });

  it("answers 422 for a bad kind or page size", async () => {
    expect((await search("?kind=library")).status).toBe(422);
    expect((await search("?per_page=0")).status).toBe(422);
  });
});
