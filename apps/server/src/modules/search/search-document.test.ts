import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { CORE_SQLI, MODERN_EVENTS_SSRF, WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { createSearchQueries } from "./queries.ts";

/**
 * The public search's document (`vulnerabilities.search_document`, migration 0012): title, description
 * and the names and slugs of the affected products, kept current by triggers when any of them changes.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;

/** A record whose title and description never name its product (name and slug share no word either). */
const QUOKKA_SQLI = {
  ...WEB_DIRECTORY_SQLI,
  id: "7d0c1f3e-5b7a-4f51-9a43-2f6f0e9c1a01",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/7d0c1f3e-5b7a-4f51-9a43-2f6f0e9c1a01",
  cve: "CVE-2099-12345",
  title: "Listing plugin <= 2.0 - Unauthenticated SQL Injection",
  description: "A parameter is not escaped before being used in a query.",
  slug: "ql-dir",
  software_name: "Quokka Listings",
  software: [{ ...WEB_DIRECTORY_SQLI.software[0], slug: "ql-dir", software_name: "Quokka Listings" }],
};

/** Another product's record that names the Quokka plugin in its description only. */
const OTTER_XSS = {
  ...QUOKKA_SQLI,
  id: "7d0c1f3e-5b7a-4f51-9a43-2f6f0e9c1a02",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/7d0c1f3e-5b7a-4f51-9a43-2f6f0e9c1a02",
  cve: "CVE-2099-12346",
  title: "Otter Gallery <= 1.2 - Stored Cross-Site Scripting",
  description: "Like the quokka plugin's bug, the gallery caption is not escaped.",
  slug: "otter-gallery",
  software_name: "Otter Gallery",
  software: [{ ...QUOKKA_SQLI.software[0], slug: "otter-gallery", software_name: "Otter Gallery" }],
};

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://db.example.test" });
  const summary = await importVulnerabilities(
    harness.database,
    [QUOKKA_SQLI, OTTER_XSS, MODERN_EVENTS_SSRF, WEB_DIRECTORY_SQLI, CORE_SQLI].map((record) =>
      JSON.stringify(record),
    ),
  );
  expect(summary.rejected).toEqual([]);
});
afterAll(() => harness.close());

/** The search's SQL itself: the HTTP answers are stored per data version, which a bare UPDATE keeps. */
async function found(text: string) {
  const queries = createSearchQueries(harness.database);
  const { rows, total } = await queries.search({ text, sort: "relevance", limit: 20, offset: 0 });
  expect(total).toBe(rows.length);
  return rows.map((row) => row.id);
}

describe("the public search's document", () => {
  it("is kept in the record's row, where every match's rank reads it (no TOAST lookup)", async () => {
    const { rows } = await harness.database.sql.query<{ storage: string }>(
      `select attstorage as storage from pg_attribute
       where attrelid = 'vulnerabilities'::regclass and attname = 'search_document'`,
    );
    expect(rows).toEqual([{ storage: "m" }]);
  });

  it("finds an imported vulnerability by its product's name and slug", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: "/api/v1/vulnerabilities?q=quokka%20listings",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((item: { id: string }) => item.id)).toEqual([QUOKKA_SQLI.id]);
    expect(await found("ql-dir")).toEqual([QUOKKA_SQLI.id]);
    // Every affected product counts, not only the main one.
    expect(await found("modern-events-calendar-lite")).toEqual([MODERN_EVENTS_SSRF.id]);
  });

  it("matches words spread over the product's name and the title", async () => {
    expect(await found("quokka unauthenticated")).toEqual([QUOKKA_SQLI.id]);
  });

  it("ranks a product match above a match in the text only", async () => {
    expect(await found("quokka")).toEqual([QUOKKA_SQLI.id, OTTER_XSS.id]);
  });

  it("follows a product's rename: found by the new name, no longer by the old", async () => {
    await harness.database.sql.query("update products set name = 'Wombat Directory' where slug = 'ql-dir'");
    expect(await found("wombat")).toEqual([QUOKKA_SQLI.id]);
    expect(await found("quokka")).toEqual([OTTER_XSS.id]);
    expect((await found("directory")).sort()).toEqual([QUOKKA_SQLI.id, WEB_DIRECTORY_SQLI.id].sort());
    await harness.database.sql.query("update products set slug = 'wombat-dir' where slug = 'ql-dir'");
    expect(await found("wombat-dir")).toEqual([QUOKKA_SQLI.id]);
    expect(await found("ql-dir")).toEqual([]);
  });

  it("follows a vulnerability's title and its affected products", async () => {
    await harness.database.sql.query("update vulnerabilities set title = 'Platypus overflow' where id = $1", [
      QUOKKA_SQLI.id,
    ]);
    expect(await found("platypus")).toEqual([QUOKKA_SQLI.id]);
    expect(await found("listing plugin")).toEqual([]);

    // A re-import that moves the record to another product: the old product no longer finds it.
    const moved = {
      ...QUOKKA_SQLI,
      slug: "numbat-forms",
      software_name: "Numbat Forms",
      software: [{ ...QUOKKA_SQLI.software[0], slug: "numbat-forms", software_name: "Numbat Forms" }],
    };
    const summary = await importVulnerabilities(harness.database, [JSON.stringify(moved)]);
    expect(summary.rejected).toEqual([]);
    expect(await found("numbat")).toEqual([QUOKKA_SQLI.id]);
    expect(await found("wombat")).toEqual([]);

    await harness.database.sql.query("delete from affected_ranges where vulnerability_id = $1", [
      QUOKKA_SQLI.id,
    ]);
    expect(await found("numbat")).toEqual([]);
    expect(await found("listing plugin")).toEqual([QUOKKA_SQLI.id]);
  });

  it("keeps the main product's kind on the record for the kind filter (migration 0013)", async () => {
    const kindOf = async (id: string) =>
      (
        await harness.database.sql.query<{ product_kind: string }>(
          "select product_kind from vulnerabilities where id = $1",
          [id],
        )
      ).rows[0]?.product_kind;
    const queries = createSearchQueries(harness.database);
    const search = async (kind: string) =>
      (await queries.search({ kind, sort: "date", limit: 20, offset: 0 })).rows.map((row) => row.id);

    expect(await kindOf(CORE_SQLI.id)).toBe("core");
    expect(await kindOf(WEB_DIRECTORY_SQLI.id)).toBe("plugin");
    expect(await search("core")).toEqual([CORE_SQLI.id]);
    const text = await queries.search({
      text: "sql injection",
      kind: "core",
      sort: "relevance",
      limit: 20,
      offset: 0,
    });
    expect(text.rows.map((row) => row.id)).toEqual([CORE_SQLI.id]);

    // A record moved to another product takes that product's kind; a product's new kind reaches its records.
    const { rows } = await harness.database.sql.query<{ id: number }>(
      "select id from products where kind = 'core' limit 1",
    );
    await harness.database.sql.query("update vulnerabilities set product_id = $1 where id = $2", [
      rows[0]!.id,
      WEB_DIRECTORY_SQLI.id,
    ]);
    expect(await kindOf(WEB_DIRECTORY_SQLI.id)).toBe("core");
    await harness.database.sql.query("update products set kind = 'theme' where id = $1", [rows[0]!.id]);
    expect(await kindOf(WEB_DIRECTORY_SQLI.id)).toBe("theme");
    expect(await kindOf(CORE_SQLI.id)).toBe("theme");
    expect((await search("theme")).sort()).toEqual([CORE_SQLI.id, WEB_DIRECTORY_SQLI.id].sort());
    expect(await search("core")).toEqual([]);
  });
});
