import { describe, expect, it } from "vitest";
import type { RankingQueries } from "./queries.ts";
import { createRankingService } from "./service.ts";

const ZERO_COUNTS = {
  vulnerabilities: 0,
  patched: 0,
  products: 0,
  researchers: 0,
  plugin: 0,
  theme: 0,
  core: 0,
  critical: 0,
  high: 0,
  medium: 0,
  low: 0,
  none: 0,
  updated_at: null,
};

describe("getDatabaseCounts", () => {
  it("asks the database at most once a minute, however many pages wait", async () => {
    let calls = 0;
    let clock = 0;
    const queries = {
      databaseCounts: async () => ({ ...ZERO_COUNTS, vulnerabilities: ++calls }),
    } as unknown as RankingQueries;
    const service = createRankingService({ queries, appUrl: "", now: () => clock });
    const answers = await Promise.all([service.getDatabaseCounts(), service.getDatabaseCounts()]);
    expect(answers.map((answer) => answer.vulnerabilities)).toEqual([1, 1]);
    clock = 59_999;
    expect((await service.getDatabaseCounts()).vulnerabilities).toBe(1);
    clock = 60_000;
    expect((await service.getDatabaseCounts()).vulnerabilities).toBe(2);
  });

  it("reads the counts again as soon as the data version moves (a sync), not a minute later", async () => {
    let calls = 0;
    let version = "7";
    const queries = {
      databaseCounts: async () => ({
        ...ZERO_COUNTS,
        vulnerabilities: ++calls,
        updated_at: new Date(`2026-12-0${calls}T10:00:00Z`),
      }),
    } as unknown as RankingQueries;
    const service = createRankingService({ queries, appUrl: "", now: () => 0, dataVersion: () => version });
    expect(await service.getDatabaseCounts()).toMatchObject({
      vulnerabilities: 1,
      updated_at: "2026-12-01T10:00:00Z",
    });
    expect((await service.getDatabaseCounts()).vulnerabilities).toBe(1);
    version = "8";
    expect(await service.getDatabaseCounts()).toMatchObject({
      vulnerabilities: 2,
      updated_at: "2026-12-02T10:00:00Z",
    });
  });
});
