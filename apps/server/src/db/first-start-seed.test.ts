import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./client.ts";
import { seedOnFirstStart } from "./first-start-seed.ts";
import { CORE_SQLI, WEB_DIRECTORY_PLUGIN, WEB_DIRECTORY_SQLI } from "./import-fixtures.ts";
import { openTestDatabase } from "./test-database.ts";

describe("seedOnFirstStart", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pressguard-first-start-"));
  const jsonl = (...records: unknown[]) =>
    gzipSync(records.map((record) => JSON.stringify(record)).join("\n"));
  writeFileSync(join(dataDir, "plugins.jsonl.gz"), jsonl(WEB_DIRECTORY_PLUGIN));
  writeFileSync(join(dataDir, "vulns.jsonl.gz"), jsonl(WEB_DIRECTORY_SQLI, CORE_SQLI));
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("says how many records it will import, reports records done of all, and imports only once", async () => {
    const lines: string[] = [];
    const progress: [number, number][] = [];

    const imported = await seedOnFirstStart(database, {
      dataDir,
      log: (line) => lines.push(line),
      onProgress: (done, total) => progress.push([done, total]),
    });

    expect(imported).toBe(true);
    expect(lines[0]).toBe("First start: importing the bundled WordPress vulnerability data (3 records)…");
    expect(lines.at(-1)).toMatch(
      /^Imported 1 plugins and 2 vulnerabilities \(0 rejected lines\) in [\d.]+ s$/,
    );
    expect(progress).toEqual([
      [1, 3],
      [3, 3],
    ]);
    expect(await seedOnFirstStart(database, { dataDir, log: (line) => lines.push(line) })).toBe(false);
  });
});
