import { describe, expect, it } from "vitest";
import { importPlugins, importVulnerabilities } from "./import.ts";
import {
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  WEB_DIRECTORY_PLUGIN,
  WEB_DIRECTORY_SQLI,
} from "./import-fixtures.ts";
import { countOf, database, lines, product, rows, useFreshDatabase } from "./import-test-kit.ts";

describe("importPlugins", () => {
  useFreshDatabase();

  it("fills a product with the plugin directory's metadata", async () => {
    const summary = await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));

    expect(summary).toEqual({
      kind: "plugins",
      read: 1,
      imported: 1,
      inserted: 1,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    const row = await product("plugin", "web-directory-free");
    expect(row).toMatchObject({
      platform: "wordpress",
      name: "Web Directory Free",
      version: "1.7.0",
      author: "salephpscripts.com",
      active_installs: 700,
      rating: 82,
      num_ratings: 17,
      requires_wp: null,
      tested_wp: "6.5.2",
      requires_php: null,
      directory_updated: "2024-04-10 4:57pm GMT",
      directory_url: "https://wordpress.org/plugins/web-directory-free/",
      product_url: "https://wordpress.org/plugins/web-directory-free/",
      vendor_website_url: "https://www.salephpscripts.com/wordpress_directory/",
      description: WEB_DIRECTORY_PLUGIN.short_description,
      tags: [...WEB_DIRECTORY_PLUGIN.tags],
      versions: [...WEB_DIRECTORY_PLUGIN.versions],
    });
    const [{ added }] = (await rows("select directory_added::text as added from products")) as [
      { added: string },
    ];
    expect(added).toBe("2018-05-23");
  });

  it("is idempotent and updates changed metadata", async () => {
    await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));
    expect(await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN))).toMatchObject({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });

    const newer = {
      ...WEB_DIRECTORY_PLUGIN,
      version: "1.7.1",
      tags: [],
      versions: [...WEB_DIRECTORY_PLUGIN.versions, "1.7.1"],
    };
    expect(await importPlugins(database, lines(newer))).toMatchObject({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    expect(await product("plugin", "web-directory-free")).toMatchObject({ version: "1.7.1", tags: [] });
    expect((await product("plugin", "web-directory-free"))?.versions).toHaveLength(36);
    expect(await countOf("products")).toBe(1);
  });

  it("names products after the directory, whichever file is imported first", async () => {
    const directoryName = { ...WEB_DIRECTORY_PLUGIN, name: "Web Directory Free – Directory & Classifieds" };

    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));
    expect((await product("plugin", "web-directory-free"))?.name).toBe("Web Directory Free");
    await importPlugins(database, lines(directoryName));
    expect((await product("plugin", "web-directory-free"))?.name).toBe(directoryName.name);
    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));
    expect((await product("plugin", "web-directory-free"))?.name).toBe(directoryName.name);
    expect(await countOf("products")).toBe(1);
  });

  it("never renames a directory product whose directory name is its slug", async () => {
    const slugNamed = { ...WEB_DIRECTORY_PLUGIN, name: "web-directory-free" };
    await importPlugins(database, lines(slugNamed));
    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));

    expect((await product("plugin", "web-directory-free"))?.name).toBe("web-directory-free");
    expect(await importPlugins(database, lines(slugNamed))).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it("replaces a slug fallback name once a record names the product", async () => {
    await importVulnerabilities(database, lines(MODERN_EVENTS_SSRF));
    const named = {
      ...SMASH_BALLOON_XSS,
      id: "11111111-2222-4333-8444-555555555555",
      slug: "modern-events-calendar-lite",
      software_name: "Modern Events Calendar Lite",
      software: [
        {
          ...SMASH_BALLOON_XSS.software[0],
          slug: "modern-events-calendar-lite",
          software_name: "Modern Events Calendar Lite",
        },
      ],
    };
    await importVulnerabilities(database, lines(named));
    expect((await product("plugin", "modern-events-calendar-lite"))?.name).toBe(
      "Modern Events Calendar Lite",
    );
  });

  it("keeps the name and URLs a vendor gave its product but refreshes directory facts", async () => {
    await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));
    const { rows } = await database.sql.query<{ id: number }>(
      "insert into vendors (vendor_name, contact_email, contact_person) values ('V', 'v@vendor.example', 'V') returning id",
    );
    await database.sql.query(
      "update products set vendor_id = $2, name = 'Vendor name', product_url = 'https://vendor.example/p' where slug = $1",
      ["web-directory-free", rows[0]?.id],
    );
    await importPlugins(database, lines({ ...WEB_DIRECTORY_PLUGIN, version: "2.0" }));

    expect(await product("plugin", "web-directory-free")).toMatchObject({
      name: "Vendor name",
      product_url: "https://vendor.example/p",
      version: "2.0",
    });
  });

  it("rejects plugin lines that fail the schema", async () => {
    const summary = await importPlugins(database, [
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, added: "2018-13-45" }),
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, slug: "" }),
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, rating: 120 }),
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, slug: "other-plugin" }),
    ]);
    expect(summary.rejected.map((rejection) => [rejection.line, rejection.reason.split(":")[0]])).toEqual([
      [1, "added"],
      [2, "slug"],
      [3, "rating"],
    ]);
    expect(summary.imported).toBe(1);
  });
});
