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
});
