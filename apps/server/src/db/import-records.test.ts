import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { MODERN_EVENTS_SSRF, SMASH_BALLOON_XSS_LINE, WEB_DIRECTORY_PLUGIN } from "./import-fixtures.ts";
import { detectRecordKind, PluginRecord, readLines, VulnerabilityRecord } from "./import-records.ts";

describe("readLines", () => {
  const directory = mkdtempSync(join(tmpdir(), "pressguard-lines-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const text = Array.from({ length: 20_000 }, (_, index) => `{"n":${index + 1}}`).join("\n");

  it.each([
    ["plain", "lines.jsonl", Buffer.from(text)],
    ["gzip", "lines.jsonl.gz", gzipSync(text)],
  ])("loses no %s line when iteration starts late", async (_kind, name, content) => {
    const path = join(directory, name);
    writeFileSync(path, content);

    const lines = await readLines(path);
    await sleep(100);
    let count = 0;
    let last = 0;
    for await (const { line, text: lineText } of lines) {
      count++;
      last = line;
      expect(JSON.parse(lineText)).toEqual({ n: line });
    }
    expect(count).toBe(20_000);
    expect(last).toBe(20_000);
  });

  it("numbers lines from 1, counting blank lines but not yielding them", async () => {
    const read: [number, string][] = [];
    for await (const { line, text: lineText } of await readLines(["a", "", "  ", "b\r", "c"])) {
      read.push([line, lineText]);
    }
    expect(read).toEqual([
      [1, "a"],
      [4, "b"],
      [5, "c"],
    ]);
  });

  it("rejects a missing file before any line is read", async () => {
    await expect(readLines(join(directory, "missing.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});

describe("record schemas", () => {
  it("accept the README's example line", () => {
    const record = VulnerabilityRecord.parse(JSON.parse(SMASH_BALLOON_XSS_LINE));
    expect(record.software[0]?.affected[0]).toEqual({ fixed: "4.1.1", prefix: "<", version: "4.1.1" });
  });

  it("reject a record that lists one product twice", () => {
    const twice = {
      ...MODERN_EVENTS_SSRF,
      software: [MODERN_EVENTS_SSRF.software[0], MODERN_EVENTS_SSRF.software[0]],
    };
    const result = VulnerabilityRecord.safeParse(twice);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("plugin/modern-events-calendar is listed twice");
  });

  it("accept a plugin record with its optional fields missing", () => {
    expect(PluginRecord.parse({ slug: "tiny", name: "Tiny" })).toMatchObject({ tags: [], versions: [] });
  });

  it("tell vulnerability records from plugin records", () => {
    expect(detectRecordKind(MODERN_EVENTS_SSRF)).toBe("vulns");
    expect(detectRecordKind(WEB_DIRECTORY_PLUGIN)).toBe("plugins");
    expect(detectRecordKind({ hello: "world" })).toBeNull();
    expect(detectRecordKind([1, 2])).toBeNull();
    expect(detectRecordKind("text")).toBeNull();
  });
});
