import { describe, expect, it } from "vitest";
import { adviceOf } from "./entry-item.tsx";
import { exposureLine, orderEntries, withVersion } from "./inventory.ts";
import { readInventory, readPickedProducts } from "./inventory-reading.ts";

const WP_CLI = JSON.stringify([
  { name: "contact-form-7", status: "active", update: "available", version: "5.3.1" },
  { name: "akismet", status: "active", update: "none", version: "5.0" },
  { name: "hello-dolly", status: "inactive", update: "none", version: "" },
]);

describe("readInventory (issue 20: the watchlist's upload)", () => {
  it("reads a wp plugin list with WordPress core first, and says what it skipped", () => {
    const reading = readInventory({ text: WP_CLI, kind: "plugin", wordpress: "6.4.2" });
    expect(reading).toEqual({
      ok: true,
      entries: [
        { kind: "core", slug: "wordpress", version: "6.4.2" },
        { kind: "plugin", slug: "contact-form-7", version: "5.3.1" },
        { kind: "plugin", slug: "akismet", version: "5.0" },
      ],
      problems: ["hello-dolly has no version: skipped."],
    });
  });

  it("reads a theme list as themes", () => {
    const text = JSON.stringify([{ name: "astra", status: "active", version: "4.1.0" }]);
    expect(readInventory({ text, kind: "theme", wordpress: "" })).toMatchObject({
      ok: true,
      entries: [{ kind: "theme", slug: "astra", version: "4.1.0" }],
    });
  });

  it("puts what cannot be read at the field, in the parser's sentences", () => {
    expect(readInventory({ text: "", kind: "plugin", wordpress: "" })).toEqual({
      ok: false,
      errors: { inventory: ["Paste the output of `wp plugin list --format=json` or a composer.lock."] },
    });
    expect(readInventory({ text: "not json", kind: "theme", wordpress: "" })).toEqual({
      ok: false,
      errors: { inventory: ["This is not JSON: paste the output of `wp theme list --format=json`."] },
    });
    expect(readInventory({ text: WP_CLI, kind: "plugin", wordpress: "six" })).toEqual({
      ok: false,
      errors: { wordpress: ["Enter a version number such as 6.4.2."] },
    });
  });

  it("takes WordPress's version alone", () => {
    expect(readInventory({ text: " ", kind: "plugin", wordpress: "6.0" })).toMatchObject({
      ok: true,
      entries: [{ kind: "core", slug: "wordpress", version: "6.0" }],
    });
  });
});

describe("readPickedProducts", () => {
  it("keeps valid rows and says per row what is missing or wrong", () => {
    expect(
      readPickedProducts([
        { kind: "plugin", slug: " Contact-Form-7 ", version: "5.3.1" },
        { kind: "core", slug: "wordpress", version: "6.1" },
      ]),
    ).toEqual({
      ok: true,
      entries: [
        { kind: "plugin", slug: "Contact-Form-7", version: "5.3.1" },
        { kind: "core", slug: "wordpress", version: "6.1" },
      ],
    });
    const failed = readPickedProducts([
      { kind: "plugin", slug: "", version: "1.0" },
      { kind: "plugin", slug: "akismet", version: "" },
      { kind: "theme", slug: "astra", version: "v2" },
      { kind: "plugin", slug: "fine", version: "2.0" },
    ]);
    expect(failed).toEqual({
      ok: false,
      errors: {
        0: "Enter the product's slug, such as contact-form-7.",
        1: "Enter the installed version, such as 5.8.1.",
        2: "Not a version: send a version number such as 5.8.1, or latest for the product's current version.",
      },
    });
  });
});

describe("a watchlist's entries", () => {
  const entries = [
    { kind: "plugin", slug: "a", version: "1.0", vulnerabilities: [] },
    { kind: "plugin", slug: "b", version: "2.0", vulnerabilities: [{}] },
    { kind: "theme", slug: "a", version: "3.0", vulnerabilities: [] },
    { kind: "plugin", slug: "c", version: "4.0", vulnerabilities: [{}, {}] },
  ];

  it("changes one entry's version (same kind and slug), keeping the others and their order", () => {
    expect(withVersion(entries, { kind: "theme", slug: "a" }, " 3.1 ")).toEqual([
      { kind: "plugin", slug: "a", version: "1.0" },
      { kind: "plugin", slug: "b", version: "2.0" },
      { kind: "theme", slug: "a", version: "3.1" },
      { kind: "plugin", slug: "c", version: "4.0" },
    ]);
  });

  it("lists the exposed entries first, each group in list order", () => {
    expect(orderEntries(entries).map((entry) => `${entry.kind}:${entry.slug}`)).toEqual([
      "plugin:b",
      "plugin:c",
      "plugin:a",
      "theme:a",
    ]);
  });

  it("lists the entries exposed to a known-exploited record before the other exposed ones (issue 34)", () => {
    const kev = {
      known_exploited: { date_added: "2024-05-01", due_date: "2024-05-22", ransomware: "Unknown" },
    };
    const withKev = [...entries, { kind: "plugin", slug: "d", version: "5.0", vulnerabilities: [{}, kev] }];
    expect(orderEntries(withKev).map((entry) => `${entry.kind}:${entry.slug}`)).toEqual([
      "plugin:d",
      "plugin:b",
      "plugin:c",
      "plugin:a",
      "theme:a",
    ]);
  });

  it("sums up a watchlist's counts", () => {
    expect(exposureLine({ entries: 0, exposed_entries: 0, vulnerabilities: 0 })).toBe("No entries yet");
    expect(exposureLine({ entries: 1, exposed_entries: 0, vulnerabilities: 0 })).toBe(
      "1 entry, none exposed",
    );
    expect(exposureLine({ entries: 24, exposed_entries: 3, vulnerabilities: 1 })).toBe(
      "3 of 24 entries exposed (1 known vulnerability)",
    );
    expect(exposureLine({ entries: 24, exposed_entries: 3, vulnerabilities: 7 })).toBe(
      "3 of 24 entries exposed (7 known vulnerabilities)",
    );
  });

  it("says what to do: the version to update to, and what no update fixes", () => {
    const three = [{}, {}, {}] as never[];
    expect(adviceOf({ vulnerabilities: three, update_to: "5.9.5", unfixed: 0 })).toBe("Update to ≥ 5.9.5.");
    expect(adviceOf({ vulnerabilities: three, update_to: "5.9.5", unfixed: 1 })).toBe(
      "Update to ≥ 5.9.5. No fix yet for 1 of them.",
    );
    expect(adviceOf({ vulnerabilities: three, update_to: null, unfixed: 3 })).toBe("No fix yet.");
    expect(adviceOf({ vulnerabilities: [], update_to: null, unfixed: 0 })).toBe("");
  });
});
