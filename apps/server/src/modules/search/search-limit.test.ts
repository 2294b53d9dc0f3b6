import { SEARCH_MATCH_LIMIT } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, SqlRunner } from "../../db/client.ts";
import { importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS, WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { createSearchQueries } from "./queries.ts";

/**
 * The public search's limit (decision 015): past SEARCH_MATCH_LIMIT matches a search by words neither
 * counts nor ranks them all; it says so, serves the newest first and stops its pages at the limit.
 * Lists by filters alone count exactly and reach every record (issue 17).
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
const MANY = SEARCH_MATCH_LIMIT + 25;

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://db.example.test" });
  const summary = await importVulnerabilities(
    harness.database,
    [SMASH_BALLOON_XSS, WEB_DIRECTORY_SQLI].map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
  // Generated records that all match "wombat", one a minute apart: number i is the i-th newest.
  await harness.database.sql.query(
    `insert into vulnerabilities (slug, product_id, title, description, severity, source, published_at)
     select 'wombat-' || i, (select id from products where slug = 'custom-facebook-feed'),
            'Wombat gallery ' || i || ' - Stored Cross-Site Scripting', 'Generated for the search limit.',
            case when i % 2 = 0 then 'high' else 'low' end, 'test-generated',
            timestamptz '2030-01-01' - (i || ' minutes')::interval
     from generate_series(1, $1::int) as i`,
    [MANY],
  );
}, 120_000);
afterAll(() => harness.close());

const get = async (query: string) => {
  const response = await harness.app.inject({ method: "GET", url: `/api/v1/vulnerabilities?${query}` });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    data: { id: string; slug: string }[];
    pagination: { total: number; last_page: number; next_page_url: string | null; total_capped?: true };
  };
};

describe("a search broader than its limit", () => {
  it("says it stopped counting, and lists the newest matches first whatever the sort", async () => {
    for (const sort of ["relevance", "date"]) {
      const page = await get(`q=wombat&sort=${sort}`);
      expect(page.pagination).toMatchObject({
        total: SEARCH_MATCH_LIMIT,
        total_capped: true,
        last_page: SEARCH_MATCH_LIMIT / 20,
      });
      expect(page.data.map((item) => item.slug)).toEqual(
        Array.from({ length: 20 }, (_, index) => `wombat-${index + 1}`),
      );
    }
  });

  it("serves pages up to the limit and none past it", async () => {
    const last = await get(`q=wombat&page=${SEARCH_MATCH_LIMIT / 20}`);
    expect(last.data.at(-1)?.slug).toBe(`wombat-${SEARCH_MATCH_LIMIT}`);
    expect(last.pagination.next_page_url).toBeNull();
    const beyond = await get(`q=wombat&page=${SEARCH_MATCH_LIMIT / 20 + 1}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toMatchObject({ total: SEARCH_MATCH_LIMIT, total_capped: true });
  });

  it("counts a list of filters alone exactly and reaches its last record, the unfiltered list too", async () => {
    // Issue 17: browsing without words reaches every record, and its numbers agree with the counters.
    const plugins = await get("kind=plugin");
    const all = MANY + 2;
    expect(plugins.pagination).toMatchObject({ total: all, last_page: Math.ceil(all / 20) });
    expect(plugins.pagination.total_capped).toBeUndefined();
    expect(plugins.data[0]?.slug).toBe("wombat-1");
    const last = await get(`kind=plugin&page=${Math.ceil(all / 20)}`);
    // Newest first; the record without a date comes last.
    expect(last.data.map((item) => item.id).slice(-2)).toEqual([WEB_DIRECTORY_SQLI.id, SMASH_BALLOON_XSS.id]);
    expect(last.pagination.next_page_url).toBeNull();
    const everything = await get("");
    expect(everything.pagination).toMatchObject({ total: all, last_page: Math.ceil(all / 20) });
    expect(everything.pagination.total_capped).toBeUndefined();
  });

  it("keeps narrow searches exact and ranked", async () => {
    const narrow = await get("q=wombat%20gallery%2042");
    expect(narrow.pagination.total).toBe(1);
    expect(narrow.pagination.total_capped).toBeUndefined();
    const other = await get("q=sql%20injection");
    expect(other.data.map((item) => item.id)).toEqual([WEB_DIRECTORY_SQLI.id]);
  });

  it("lets the query layer count and order everything when no limit is given", async () => {
    const queries = createSearchQueries(harness.database);
    const all = await queries.search({ text: "wombat", sort: "date", limit: 1, offset: MANY - 1 });
    expect(all).toMatchObject({ total: MANY, capped: false });
    expect(all.rows[0]?.slug).toBe(`wombat-${MANY}`);
  });

  it("counts first, from the statistics, a search whose words are all common", async () => {
    // The raw insert above left the statistics at the two imported records: "wombat" looks rare.
    const ran: string[] = [];
    const recording = (runner: SqlRunner): SqlRunner => ({
      query(text, params, options) {
        ran.push(
          text.includes("with filtered as materialized")
            ? "ranked"
            : text.includes("limit 2001) m")
              ? "count"
              : "other",
        );
        return runner.query(text, params, options);
      },
      transaction: (work) => runner.transaction(work),
    });
    const search = (database: Database) =>
      createSearchQueries({ ...database, sql: recording(database.sql) }).search({
        text: "wombat",
        sort: "relevance",
        limit: 20,
        offset: 0,
        matchLimit: SEARCH_MATCH_LIMIT,
      });

    const unknown = await search(harness.database);
    expect(ran.filter((statement) => statement !== "other")).toEqual(["ranked"]);
    ran.length = 0;
    await harness.database.sql.query("analyze vulnerabilities");
    const known = await search(harness.database);
    expect(ran.filter((statement) => statement !== "other")).toEqual(["count"]);
    // Either way, the same answer.
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ total: SEARCH_MATCH_LIMIT, capped: true });
  });
});
