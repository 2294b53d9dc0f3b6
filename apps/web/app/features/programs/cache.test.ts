import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { pageFromUrl, programKeys } from "./api.ts";
import { resetProgramData, switchProgramTab } from "./cache.ts";

function seeded() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(programKeys.list("all-active"), { pages: [{ data: [1] }], pageParams: [1] });
  client.setQueryData(programKeys.list("vdp-pending"), { pages: [{ data: [2] }], pageParams: [1] });
  client.setQueryData(programKeys.details(), { active: 1 });
  client.setQueryData(programKeys.program("7"), { id: 7 });
  return client;
}

describe("program list cache (spec §4)", () => {
  it("keeps every cached list when the first tab is shown", () => {
    const client = seeded();
    expect(switchProgramTab(client, "all-active")).toBe(false);
    expect(client.getQueryData(programKeys.list("vdp-pending"))).toBeDefined();
  });

  it("keeps the list when the same tab is shown again (back from a program page)", () => {
    const client = seeded();
    switchProgramTab(client, "all-active");
    expect(switchProgramTab(client, "all-active")).toBe(false);
    expect(client.getQueryData(programKeys.list("all-active"))).toBeDefined();
    expect(client.getQueryData(programKeys.list("vdp-pending"))).toBeDefined();
  });

  it("drops the other tabs' lists when another tab is shown, and keeps the counters", () => {
    const client = seeded();
    switchProgramTab(client, "all-active");
    expect(switchProgramTab(client, "vdp-pending")).toBe(true);
    expect(client.getQueryData(programKeys.list("all-active"))).toBeUndefined();
    expect(client.getQueryData(programKeys.list("vdp-pending"))).toBeDefined();
    expect(client.getQueryData(programKeys.details())).toBeDefined();
  });

  it("remembers the last tab per query client", () => {
    const first = seeded();
    const second = seeded();
    switchProgramTab(first, "all-active");
    expect(switchProgramTab(second, "vdp-pending")).toBe(false);
    expect(second.getQueryData(programKeys.list("all-active"))).toBeDefined();
  });

  it("clears lists, counters and single products after a change to the product list", async () => {
    const client = seeded();
    client.setQueryData(["public", "footer-metrics"], { active_vdp_directory_count: 3 });
    await resetProgramData(client);
    expect(client.getQueryData(programKeys.list("all-active"))).toBeUndefined();
    expect(client.getQueryData(programKeys.list("vdp-pending"))).toBeUndefined();
    expect(client.getQueryData(programKeys.details())).toBeUndefined();
    expect(client.getQueryData(programKeys.program("7"))).toBeUndefined();
    expect(client.getQueryData(["public", "footer-metrics"])).toBeDefined();
  });
});

describe("pageFromUrl", () => {
  it("reads the page of a relative or absolute next_page_url", () => {
    expect(pageFromUrl("/api/products?filter=all-active&page=3")).toBe(3);
    expect(pageFromUrl("https://example.test/api/products?page=2")).toBe(2);
  });

  it("gives null at the end of the list or for a URL without a page", () => {
    expect(pageFromUrl(null)).toBeNull();
    expect(pageFromUrl("/api/products?filter=all-active")).toBeNull();
    expect(pageFromUrl("/api/products?page=0")).toBeNull();
  });
});
