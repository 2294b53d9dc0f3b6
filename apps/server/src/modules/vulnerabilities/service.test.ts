import { describe, expect, it } from "vitest";
import { paginationOf } from "../../http/pagination.ts";
import type { VulnerabilityQueries } from "./queries.ts";
import { createVulnerabilityService } from "./service.ts";

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
    } as unknown as VulnerabilityQueries;
    const service = createVulnerabilityService(queries, "", () => clock);
    const answers = await Promise.all([service.getDatabaseCounts(), service.getDatabaseCounts()]);
    expect(answers.map((answer) => answer.vulnerabilities)).toEqual([1, 1]);
    clock = 59_999;
    expect((await service.getDatabaseCounts()).vulnerabilities).toBe(1);
    clock = 60_000;
    expect((await service.getDatabaseCounts()).vulnerabilities).toBe(2);
  });
});

describe("paginationOf", () => {
  it("links the neighbouring pages, keeping the query, and clamps previous past the end", () => {
    const query = new URLSearchParams("q=xss&page=7");
    expect(paginationOf("/api/v1/vulnerabilities", query, 7, 10, 45)).toEqual({
      current_page: 7,
      per_page: 10,
      total: 45,
      last_page: 5,
      next_page_url: null,
      prev_page_url: "/api/v1/vulnerabilities?q=xss&page=5",
    });
    expect(paginationOf("/x", new URLSearchParams(), 1, 20, 0)).toMatchObject({
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
    });
  });
});
