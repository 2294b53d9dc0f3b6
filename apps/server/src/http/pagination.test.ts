import { describe, expect, it } from "vitest";
import { paginationOf } from "./pagination.ts";

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
