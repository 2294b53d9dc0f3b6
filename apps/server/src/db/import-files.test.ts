import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { vulnerabilitySlug } from "@pressguard/domain";
import { afterAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "./import.ts";
import { CORE_SQLI, MODERN_EVENTS_SSRF, SMASH_BALLOON_XSS } from "./import-fixtures.ts";
import { ALL_RECORDS, countOf, database, lines, useFreshDatabase } from "./import-test-kit.ts";
import { vulnerabilityTypeCodeOf } from "./import-vulnerabilities.ts";

describe("importVulnerabilities from files", () => {
  useFreshDatabase();

  const directory = mkdtempSync(join(tmpdir(), "pressguard-import-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("reads plain and gzip files, recognising gzip by its magic bytes", async () => {
    const text = `${lines(SMASH_BALLOON_XSS, CORE_SQLI).join("\r\n")}\r\n`;
    const plain = join(directory, "vulns.jsonl");
    const gzip = join(directory, "vulns.jsonl.gz");
    const gzipWithoutExtension = join(directory, "vulns-compressed");
    writeFileSync(plain, text);
    writeFileSync(gzip, gzipSync(text));
    writeFileSync(gzipWithoutExtension, gzipSync(lines(MODERN_EVENTS_SSRF).join("\n")));

    expect(await importVulnerabilities(database, plain)).toMatchObject({
      read: 2,
      inserted: 2,
      rejected: [],
    });
    expect(await importVulnerabilities(database, gzip)).toMatchObject({
      read: 2,
      unchanged: 2,
      rejected: [],
    });
    expect(await importVulnerabilities(database, gzipWithoutExtension)).toMatchObject({
      read: 1,
      inserted: 1,
    });
    expect(await countOf("vulnerabilities")).toBe(3);
  });

  it("fails when the file cannot be read", async () => {
    await expect(importVulnerabilities(database, join(directory, "missing.jsonl"))).rejects.toThrow(/ENOENT/);
  });

  it("fails on a truncated gzip file", async () => {
    const truncated = join(directory, "truncated.jsonl.gz");
    const compressed = gzipSync(lines(...ALL_RECORDS).join("\n"));
    writeFileSync(truncated, compressed.subarray(0, compressed.length - 40));
    await expect(importVulnerabilities(database, truncated)).rejects.toThrow(/end of file|unexpected/i);
  });
});

describe("derived values", () => {
  it("builds deterministic URL-safe slugs from the title and the id", () => {
    expect(vulnerabilitySlug("WordPress Core < 5.8.3 - SQL Injection via WP_Meta_Query", CORE_SQLI.id)).toBe(
      "wordpress-core-5-8-3-sql-injection-via-wp-meta-query-0114f098",
    );
    expect(vulnerabilitySlug("日本語", "ABCDEF01-0000-4000-8000-000000000000")).toBe(
      "vulnerability-abcdef01",
    );
    const long = vulnerabilitySlug("a very long title ".repeat(20), SMASH_BALLOON_XSS.id);
    expect(long.length).toBeLessThanOrEqual(80 + 9);
    expect(long).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*-01889c7b$/);
  });

  it("classifies a record without vuln_type from its title", () => {
    expect(
      vulnerabilityTypeCodeOf({
        vuln_type: null,
        title: "Nifty Newsletters <= 4.0.23 – Cross-Site Request Forgery to Stored Cross-Site Scripting",
        software_name: "Nifty Newsletters",
      }),
    ).toBe(6);
    expect(vulnerabilityTypeCodeOf({ vuln_type: null, title: "Plugin <= 1.0", software_name: null })).toBe(
      29,
    );
    expect(vulnerabilityTypeCodeOf({ vuln_type: "", title: "", software_name: null })).toBe(10);
  });
});
