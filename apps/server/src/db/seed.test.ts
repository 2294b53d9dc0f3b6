import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "./client.ts";
import { importPlugins, importVulnerabilities } from "./import.ts";
import { CORE_SQLI, WEB_DIRECTORY_PLUGIN, WEB_DIRECTORY_SQLI } from "./import-fixtures.ts";
import { countSeedRecords, isDatabaseSeeded, recordImportedSeedFile, seedDatabase } from "./seed.ts";
import { openTestDatabase } from "./test-database.ts";

describe("seedDatabase", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pressguard-seed-"));
  const jsonl = (...records: unknown[]) =>
    gzipSync(records.map((record) => JSON.stringify(record)).join("\n"));
  writeFileSync(
    join(dataDir, "plugins.jsonl.gz"),
    jsonl({ ...WEB_DIRECTORY_PLUGIN, name: "Web Directory Free (directory)" }),
  );
  writeFileSync(join(dataDir, "vulns.jsonl.gz"), jsonl(WEB_DIRECTORY_SQLI, CORE_SQLI));

  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(() => database.close());
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("imports the plugins, then the vulnerabilities, of a seed directory", async () => {
    expect(await isDatabaseSeeded(database)).toBe(false);
    const phases: string[] = [];

    const summary = await seedDatabase(database, {
      dataDir,
      onProgress: (progress) => phases.push(progress.kind),
    });

    expect(summary.plugins).toMatchObject({ read: 1, inserted: 1, rejected: [] });
    expect(summary.vulnerabilities).toMatchObject({ read: 2, inserted: 2, rejected: [] });
    expect(phases).toEqual(["plugins", "vulns"]);
    expect(await isDatabaseSeeded(database)).toBe(true);
    const { rows } = await database.sql.query<{ name: string }>(
      "select name from products where slug = 'web-directory-free'",
    );
    expect(rows).toEqual([{ name: "Web Directory Free (directory)" }]);
  });

  it("skips, when it runs again, the files it already imported", async () => {
    await seedDatabase(database, { dataDir });
    const again = await seedDatabase(database, { dataDir });

    expect(again).toEqual({ plugins: null, vulnerabilities: null });
    const { rows } = await database.sql.query<{ count: number }>(
      "select count(*)::int as count from vulnerabilities",
    );
    expect(rows[0]?.count).toBe(2);
  });

  it("is marked done once db:import has imported both bundled files, so a start does not import them again", async () => {
    await importVulnerabilities(database, join(dataDir, "vulns.jsonl.gz"));
    await recordImportedSeedFile(database, join(dataDir, "vulns.jsonl.gz"), dataDir);
    expect(await isDatabaseSeeded(database)).toBe(false);

    await importPlugins(database, join(dataDir, "plugins.jsonl.gz"));
    await recordImportedSeedFile(database, join(dataDir, "plugins.jsonl.gz"), dataDir);
    expect(await isDatabaseSeeded(database)).toBe(true);
    expect(await seedDatabase(database, { dataDir })).toEqual({ plugins: null, vulnerabilities: null });
  });

  it("counts the records of the seed files (the first start's progress total)", async () => {
    expect(await countSeedRecords(dataDir)).toBe(3);
  });

  it("fails when the seed files are missing", async () => {
    await expect(seedDatabase(database, { dataDir: join(dataDir, "nowhere") })).rejects.toThrow(/ENOENT/);
    expect(await isDatabaseSeeded(database)).toBe(false);
  });
});

describe("isDatabaseSeeded", () => {
  it("is false for a database that holds records but never finished a seed import", async () => {
    const database = await openTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), "pressguard-partial-"));
    try {
      writeFileSync(join(dataDir, "vulns.jsonl.gz"), gzipSync(JSON.stringify(WEB_DIRECTORY_SQLI)));
      await importVulnerabilities(database, join(dataDir, "vulns.jsonl.gz"));
      expect(await isDatabaseSeeded(database)).toBe(false);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
