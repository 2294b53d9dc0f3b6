import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_SQLI,
} from "../../db/import-fixtures.ts";
import { products } from "../../db/schema/index.ts";
import { createTestApp } from "../../test/app.ts";
import { leaderboardPeriod, statisticsPeriod } from "./periods.ts";
import { createRankingQueries } from "./queries.ts";
import { createRankingService } from "./service.ts";

const RECORDS = [
  SMASH_BALLOON_XSS,
  MODERN_EVENTS_SSRF,
  WEB_DIRECTORY_SQLI,
  VIDEO_GALLERY_ALL_VERSIONS,
  CORE_SQLI,
];

async function seededApp() {
  const harness = await createTestApp();
  await importVulnerabilities(
    harness.database,
    RECORDS.map((record) => JSON.stringify(record)),
  );
  return harness;
}

const names = (body: { data: { display_name: string }[] }) => body.data.map((entry) => entry.display_name);

describe("periods", () => {
  const now = new Date("2026-11-22T21:00:00Z");

  it("runs monthly and yearly leaderboards over the current UTC calendar month and year", () => {
    expect(leaderboardPeriod("monthly", now)).toEqual({
      from: new Date("2026-11-01T00:00:00Z"),
      to: new Date("2026-12-01T00:00:00Z"),
      cveYear: null,
    });
    expect(leaderboardPeriod("yearly", now)).toMatchObject({
      from: new Date("2026-01-01T00:00:00Z"),
      cveYear: 2026,
    });
    expect(leaderboardPeriod("all-time", now)).toEqual({ from: null, to: null, cveYear: null });
  });

  it("reads statistics timeframes and refuses unknown ones", () => {
    expect(statisticsPeriod("last-30-days", now)?.from).toEqual(new Date("2026-10-23T21:00:00Z"));
    expect(statisticsPeriod("2024", now)).toMatchObject({ cveYear: 2024 });
    expect(statisticsPeriod("forever", now)).toBeNull();
    expect(statisticsPeriod("24", now)).toBeNull();
  });
});

describe("leaderboards and statistics", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await seededApp();
  });
  afterAll(() => harness.close());

  const get = (url: string) => harness.app.inject({ method: "GET", url });

  it("ranks all-time by points, equal totals in a stable order", async () => {
    const response = await get("/api/v1/leaderboard/all-time");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(names(body)).toEqual(["Andrea De Dominicis", "Kim Cerra", "Simone Onofri", "Friderika Baranyai"]);
    expect(body.data.map((entry: { rank: number; points: number }) => [entry.rank, entry.points])).toEqual([
      [1, 10],
      [2, 10],
      [3, 10],
      [4, 7],
    ]);
    expect(body.data[0].url).toMatch(/\/database\/researchers\/[0-9a-f-]{36}$/);
  });

  it("counts only the month or year of the leaderboard", async () => {
    const queries = createRankingQueries(harness.database.sql);
    const inAugust = createRankingService({
      queries,
      appUrl: "",
      now: () => new Date("2024-08-15T00:00:00Z").getTime(),
    });
    expect(names(await inAugust.getLeaderboard("monthly"))).toEqual(["Friderika Baranyai"]);
    expect(await inAugust.getLeaderboard("yearly")).toMatchObject({
      period: { from: "2024-01-01T00:00:00.000Z" },
    });
    expect((await inAugust.getLeaderboard("yearly")).data).toHaveLength(4);
    const inMay = createRankingService({
      queries,
      appUrl: "",
      now: () => new Date("2024-05-15T00:00:00Z").getTime(),
    });
    expect((await inMay.getLeaderboard("monthly")).data).toEqual([]);
  });

  it("answers 404 for an unknown leaderboard, platform or timeframe", async () => {
    expect((await get("/api/v1/leaderboard/weekly")).statusCode).toBe(404);
    expect((await get("/api/v1/statistics/joomla/all-time")).statusCode).toBe(404);
    expect((await get("/api/v1/statistics/wordpress/forever")).statusCode).toBe(404);
  });

  it("counts by kind, type, severity and patch status, with the monthly trend and top researchers", async () => {
    const body = (await get("/api/v1/statistics/wordpress/all-time")).json();
    expect(body).toMatchObject({
      platform: "wordpress",
      timeframe: "all-time",
      total: 5,
      by_kind: [
        { key: "plugin", label: "Plugin", count: 4 },
        { key: "core", label: "Core", count: 1 },
      ],
      patched: { patched: 3, unpatched: 2 },
      monthly: [
        {
          month: "2024-06",
          count: 1,
          by_severity: { critical: 1, high: 0, medium: 0, low: 0, none: 0, unknown: 0 },
        },
        {
          month: "2024-08",
          count: 1,
          by_severity: { critical: 0, high: 1, medium: 0, low: 0, none: 0, unknown: 0 },
        },
      ],
    });
    expect(body.by_type[0]).toEqual({ key: "1", label: "SQL Injection", count: 2 });
    expect(body.by_severity).toContainEqual({ key: "critical", label: "Critical", count: 1 });
    expect(body.top_researchers).toHaveLength(4);
  });

  it("limits statistics to a year, counting undated records by their CVE year", async () => {
    const body = (await get("/api/v1/statistics/wordpress/2021")).json();
    expect(body).toMatchObject({ total: 1, monthly: [], top_researchers: [] });
    expect((await get("/api/v1/statistics/wordpress/2024")).json().total).toBe(2);
  });

  it("lists every year with records, newest first, counted as each year's statistics count (issue 19)", async () => {
    const { years } = (await get("/api/v1/statistics/wordpress/last-30-days")).json();
    expect(years.length).toBeGreaterThan(0);
    expect(years.map((entry: { year: number }) => entry.year)).toEqual(
      [...years.map((entry: { year: number }) => entry.year)].sort((a, b) => b - a),
    );
    for (const { year, count } of years)
      expect((await get(`/api/v1/statistics/wordpress/${year}`)).json().total).toBe(count);
    expect(years).toContainEqual({ year: 2024, count: 2 });
    expect(years).toContainEqual({ year: 2021, count: 1 });
  });
});

describe("points on products with an active program", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await seededApp();
    await harness.database.db
      .update(products)
      .set({ isActive: true })
      .where(eq(products.slug, "modern-events-calendar"));
  });
  afterAll(() => harness.close());

  it("doubles them (PRODUCT.md §5)", async () => {
    const body = (await harness.app.inject({ method: "GET", url: "/api/v1/leaderboard/all-time" })).json();
    expect(body.data[0]).toMatchObject({ rank: 1, display_name: "Friderika Baranyai", points: 14 });
  });
});

describe("a withdrawn record (decision 035)", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await seededApp();
    // Its three researchers were credited on it alone (10 points each).
    await harness.database.sql.query("update vulnerabilities set withdrawn_at = now() where id = $1", [
      WEB_DIRECTORY_SQLI.id,
    ]);
  });
  afterAll(() => harness.close());

  const get = (url: string) => harness.app.inject({ method: "GET", url });

  it("earns no points: not on the leaderboards, the profile, the product's contributors or the researcher search", async () => {
    expect(names((await get("/api/v1/leaderboard/all-time")).json())).toEqual(["Friderika Baranyai"]);
    const statistics = (await get("/api/v1/statistics/wordpress/all-time")).json();
    expect(statistics.top_researchers.map((entry: { display_name: string }) => entry.display_name)).toEqual([
      "Friderika Baranyai",
    ]);

    const { rows } = await harness.database.sql.query<{ uuid: string; product_id: number }>(
      `select r.uuid, v.product_id from researchers r join credits c on c.researcher_id = r.id
       join vulnerabilities v on v.id = c.vulnerability_id
       where r.display_name = 'Kim Cerra'`,
    );
    const credited = rows[0]!;
    expect((await get(`/api/v1/researchers/${credited.uuid}`)).json()).toMatchObject({
      vulnerabilities: 0,
      points: 0,
      rank: null,
    });
    expect((await get(`/api/products/${credited.product_id}/contributors`)).json()).toEqual({ data: [] });
    const found = (await get("/api/v1/vulnerabilities?q=kim%20cerra")).json();
    expect(found.researchers).toMatchObject([{ display_name: "Kim Cerra", vulnerabilities: 0 }]);
  });
});
