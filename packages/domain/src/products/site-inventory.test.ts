import { describe, expect, it } from "vitest";
import { MAX_CHECK_ITEMS } from "../config/public-database-limits.ts";
import { addCoreVersion, parseSiteInventory } from "./site-inventory.ts";

const wpList = (rows: object[]) => JSON.stringify(rows);

describe("parseSiteInventory", () => {
  it("reads `wp plugin list --format=json`, keeps must-use plugins and skips drop-ins", () => {
    const text = wpList([
      { name: "contact-form-7", status: "active", update: "available", version: "5.3.1" },
      { name: "elementor", status: "inactive", update: "none", version: "3.0.0" },
      { name: "loader", status: "must-use", update: "none", version: "1.0" },
      { name: "advanced-cache.php", status: "dropin", update: "none", version: "" },
    ]);
    const { items, problems } = parseSiteInventory(text, "plugin");
    expect(items).toEqual([
      { kind: "plugin", slug: "contact-form-7", version: "5.3.1" },
      { kind: "plugin", slug: "elementor", version: "3.0.0" },
      { kind: "plugin", slug: "loader", version: "1.0" },
    ]);
    expect(problems).toEqual(["advanced-cache.php is a drop-in, not a directory plugin: skipped."]);
  });

  it("takes the kind from the visitor's choice for a theme list", () => {
    const { items } = parseSiteInventory(
      wpList([{ name: "astra", status: "active", version: "2.0" }]),
      "theme",
    );
    expect(items).toEqual([{ kind: "theme", slug: "astra", version: "2.0" }]);
  });

  it("reads a composer.lock: WPackagist plugins and themes, core, a leading v stripped, others counted", () => {
    const lock = {
      packages: [
        { name: "wpackagist-plugin/akismet", version: "v4.1.2" },
        { name: "roots/wordpress-no-content", version: "5.8.1" },
        { name: "monolog/monolog", version: "2.0.0" },
      ],
      "packages-dev": [
        { name: "wpackagist-theme/twentytwenty", version: "1.5" },
        { name: "phpunit/phpunit", version: "9.5.0" },
      ],
    };
    const { items, problems } = parseSiteInventory(JSON.stringify(lock), "plugin");
    expect(items).toEqual([
      { kind: "plugin", slug: "akismet", version: "4.1.2" },
      { kind: "core", slug: "wordpress", version: "5.8.1" },
      { kind: "theme", slug: "twentytwenty", version: "1.5" },
    ]);
    expect(problems).toEqual([
      "2 other Composer packages were ignored (not WordPress plugins, themes or core).",
    ]);
  });

  it("says plainly when the text is not JSON, or JSON of another shape", () => {
    expect(parseSiteInventory("hello there", "plugin")).toEqual({
      items: [],
      problems: ["This is not JSON: paste the output of `wp plugin list --format=json`."],
    });
    expect(parseSiteInventory('{"a": 1}', "theme").problems[0]).toMatch(/neither a list from `wp theme list/);
  });

  it("skips entries without a usable version, using the check API's own rule", () => {
    const { items, problems } = parseSiteInventory(
      wpList([
        { name: "a", status: "active" },
        { name: "b", status: "active", version: "not a version" },
        { name: "c", status: "active", version: "1.2" },
      ]),
      "plugin",
    );
    expect(items).toEqual([{ kind: "plugin", slug: "c", version: "1.2" }]);
    expect(problems).toEqual([
      "a has no version: skipped.",
      'b has the version "not a version", which is not a version number: skipped.',
    ]);
  });

  it("merges duplicates and caps the list at the check API's limit", () => {
    const dup = parseSiteInventory(
      wpList([
        { name: "Akismet", version: "1.0" },
        { name: "akismet", version: "1.0" },
      ]),
      "plugin",
    );
    expect(dup.items).toHaveLength(1);
    expect(dup.problems).toEqual(["1 duplicate entry was merged."]);

    const many = Array.from({ length: MAX_CHECK_ITEMS + 3 }, (_, index) => ({
      name: `p${index}`,
      version: "1.0",
    }));
    const capped = parseSiteInventory(wpList(many), "plugin");
    expect(capped.items).toHaveLength(MAX_CHECK_ITEMS);
    expect(capped.problems[0]).toContain(`only the first ${MAX_CHECK_ITEMS} are checked`);
  });
});

describe("addCoreVersion", () => {
  it("adds WordPress core first, or rejects a version the check API would not take", () => {
    const inventory = parseSiteInventory(wpList([{ name: "a", version: "1.0" }]), "plugin");
    expect(addCoreVersion(inventory, "6.4.2")).toBeNull();
    expect(inventory.items[0]).toEqual({ kind: "core", slug: "wordpress", version: "6.4.2" });
    expect(addCoreVersion(inventory, "six")).toBe("Enter a version number such as 6.4.2.");
    expect(addCoreVersion(inventory, "")).toBeNull();
  });
});
