import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededTestApp } from "../test/app.ts";
import { indexScansOf } from "../test/index-scans.ts";

/**
 * The database sorted by EPSS reads its first page from `vulnerability_signals_epss_idx` (migration
 * 0036, decision 036) instead of reading and sorting every record: 250–740 ms on the bundled data
 * without an index, against 10–26 ms for the date order's first page.
 */
describe("the EPSS order", () => {
  let harness: Awaited<ReturnType<typeof createSeededTestApp>>;

  beforeAll(async () => {
    harness = await createSeededTestApp();
    const { sql } = harness.database;
    // Scores as the daily file gives them: every record with a CVE has one.
    await sql.query(
      `insert into vulnerability_signals (vulnerability_id, epss)
       select id, jsonb_build_object('score', (abs(hashtext(id::text)) % 100000) / 100000.0,
         'percentile', 0.5, 'date', '2026-12-01') from vulnerabilities where cve is not null`,
    );
    await sql.query("analyze vulnerability_signals");
  }, 400_000);
  afterAll(() => harness?.close());

  const scans = () => indexScansOf(harness.database, "vulnerability_signals_epss_idx");

  it("answers the first page of sort=epss from its index, highest score first", async () => {
    const before = await scans();
    const response = await harness.app.inject({ url: "/api/v1/vulnerabilities?sort=epss&per_page=50" });
    expect(response.statusCode).toBe(200);
    const scores = response
      .json<{ data: { epss: { score: number } | null }[] }>()
      .data.map((record) => record.epss?.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0.99);
    // The statistics of the server that ran the query reach the view within its flush interval.
    await expect.poll(scans, { timeout: 15_000, interval: 500 }).toBeGreaterThan(before);
  });

  it.each([
    ["", ""],
    ["&kind=plugin&severity=high", "and v.product_kind = 'plugin' and v.severity = 'high'"],
  ])(
    "goes on from the lowest score to the unscored records by date, page after page (%s)",
    async (query, where) => {
      const { sql } = harness.database;
      const order = `(s.epss->>'score')::float8 desc nulls last, v.published_at desc nulls last, v.cve desc nulls last, v.id`;
      const scored = (
        await sql.query<{ count: number }>(
          `select count(*)::int as count from vulnerability_signals s join vulnerabilities v on v.id = s.vulnerability_id
         where s.epss is not null and v.withdrawn_at is null ${where}`,
        )
      ).rows[0]!.count;
      const page = Math.floor(scored / 10) + 1;
      const expected = (
        await sql.query<{ id: string }>(
          `select v.id from vulnerabilities v left join vulnerability_signals s on s.vulnerability_id = v.id
         where v.withdrawn_at is null ${where} order by ${order} limit 20 offset ${(page - 1) * 10}`,
        )
      ).rows.map((row) => row.id);
      const listed: string[] = [];
      for (const number of [page, page + 1]) {
        const response = await harness.app.inject({
          url: `/api/v1/vulnerabilities?sort=epss&per_page=10&page=${number}${query}`,
        });
        expect(response.statusCode).toBe(200);
        listed.push(...response.json<{ data: { id: string }[] }>().data.map((record) => record.id));
      }
      expect(listed).toEqual(expected);
      expect(expected).toHaveLength(20);
    },
  );
});
