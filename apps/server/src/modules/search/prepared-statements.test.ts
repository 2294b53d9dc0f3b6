import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlRunner } from "../../db/client.ts";
import { openSeededTestDatabase } from "../../db/test-database.ts";
import { createTestApp } from "../../test/app.ts";
import { indexScansOf } from "../../test/index-scans.ts";

/**
 * A search's product and researcher statements are planned once per connection (decision 014's
 * prepared generic plans): planning them cost more than running them, 2.4 ms against 3.5 ms for the
 * products alike and 5.5 ms against 2.7 ms for the researchers by name (decision 038, fifth look).
 * The researchers are found by their name's index, not by a text search of every name.
 */
describe("the search's product and researcher statements", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let seeded: Awaited<ReturnType<typeof openSeededTestDatabase>>;
  const statements: { text: string; prepared: boolean }[] = [];

  beforeAll(async () => {
    seeded = await openSeededTestDatabase();
    // Every statement the services send, recorded before the app takes the runner.
    const run: SqlRunner = seeded.database.sql;
    const query = run.query.bind(run);
    run.query = ((text: string, params?: unknown[], options?: { prepare?: boolean }) => {
      statements.push({ text, prepared: options?.prepare === true });
      return query(text, params, options);
    }) as SqlRunner["query"];
    harness = await createTestApp({ APP_URL: "https://db.example.test" }, undefined, seeded.database);
  }, 400_000);
  afterAll(async () => {
    await harness?.close();
    await seeded?.database.close();
  });

  const indexScans = () => indexScansOf(seeded.database, "researchers_display_name_search_idx");

  it("run prepared for a misspelt product, a product's words, a slug and a researcher's name", async () => {
    statements.length = 0;
    for (const url of [
      "/api/v1/vulnerabilities?q=woocomer",
      "/api/v1/vulnerabilities?q=contact%20form%207%20xss",
      "/api/v1/vulnerabilities?q=wordfence",
      "/api/v1/products?q=elementr",
      "/api/v1/autocomplete?q=contact%20fo",
    ]) {
      const response = await harness.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
    }
    const ofProducts = statements.filter(({ text }) => /\bfrom (products p|researchers r)\b/.test(text));
    // The misspelt name, the words (page and count), the exact names, the researchers.
    expect(ofProducts.length).toBeGreaterThanOrEqual(5);
    expect(
      ofProducts.filter((statement) => !statement.prepared).map(({ text }) => text.slice(0, 120)),
    ).toEqual([]);
  });

  it("are one text whatever the page: no prepared statement per page number on a connection", async () => {
    const textsOf = async (url: string) => {
      statements.length = 0;
      expect((await harness.app.inject({ url })).statusCode, url).toBe(200);
      return statements.filter(({ text }) => /\bfrom products p\b/.test(text)).map(({ text }) => text);
    };
    const second = await textsOf("/api/v1/products?q=form&page=2");
    expect(second.length).toBeGreaterThan(0);
    expect(await textsOf("/api/v1/products?q=form&page=7&per_page=13")).toEqual(second);
  });

  it("find researchers by their name's index", async () => {
    const before = await indexScans();
    const response = await harness.app.inject({ url: "/api/v1/autocomplete?q=wordfence%20secur" });
    expect(response.statusCode).toBe(200);
    // The statistics of the server that ran the query reach the view within its flush interval.
    await expect.poll(indexScans, { timeout: 15_000, interval: 500 }).toBeGreaterThan(before);
  });
});
