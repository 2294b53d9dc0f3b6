import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  EPSS_DEFAULT_URL,
  EpssFormatError,
  type EpssScore,
  type EpssScores,
  openEpssScores,
} from "./epss.ts";

// Excerpts of real files: the current format (model v2025.03.14, a `Z` score date) and the
// 2025-01-01 file of github.com/empiricalsec/epss_scores (model v2023.03.01, `+0000`).
const CURRENT = readFileSync(join(import.meta.dirname, "fixtures", "epss-scores.csv"), "utf8");
const OLDER = readFileSync(join(import.meta.dirname, "fixtures", "epss-scores-2025-01-01.csv"), "utf8");
const CURRENT_ROWS: EpssScore[] = [
  { cve: "CVE-1999-0001", score: 0.01025, percentile: 0.77197 },
  { cve: "CVE-2009-3129", score: 0.59441, percentile: 0.97623 },
  { cve: "CVE-2021-44228", score: 0.94358, percentile: 0.9996 },
  { cve: "CVE-2020-0638", score: 0.01655, percentile: 0.82133 },
];

async function collect(file: EpssScores): Promise<EpssScore[]> {
  const rows: EpssScore[] = [];
  for await (const row of file.scores) rows.push(row);
  return rows;
}

/** The bytes in chunks of `size`, so that lines and the gzip header straddle chunks. */
function chunked(bytes: Uint8Array, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(Buffer.from(bytes.subarray(offset, offset + size)));
  return Readable.from(chunks);
}

describe("openEpssScores", () => {
  it("points at the official daily file by default", () => {
    expect(EPSS_DEFAULT_URL).toBe("https://epss.empiricalsecurity.com/epss_scores-current.csv.gz");
  });

  it("reads the model version, the score date and every row of a plain file", async () => {
    const file = await openEpssScores(CURRENT);

    expect(file.modelVersion).toBe("v2025.03.14");
    expect(file.scoreDate).toBe("2026-03-28");
    expect(file.scoredAt.toISOString()).toBe("2026-03-28T12:55:00.000Z");
    expect(await collect(file)).toEqual(CURRENT_ROWS);
    expect(file.stats).toEqual({ rows: 4, skipped: { total: 0, byReason: {}, examples: [] } });
  });

  it("reads the older +0000 spelling of the score date", async () => {
    const file = await openEpssScores(OLDER);

    expect(file.modelVersion).toBe("v2023.03.01");
    expect(file.scoreDate).toBe("2025-01-01");
    expect(file.scoredAt.toISOString()).toBe("2025-01-01T00:00:00.000Z");
    expect((await collect(file)).map((row) => row.cve)).toEqual([
      "CVE-1999-0001",
      "CVE-1999-0002",
      "CVE-1999-0003",
    ]);
  });

  it("gunzips a stream by its magic bytes, even when they arrive in separate chunks", async () => {
    const file = await openEpssScores(chunked(gzipSync(CURRENT), 1));

    expect(file.scoreDate).toBe("2026-03-28");
    expect(await collect(file)).toEqual(CURRENT_ROWS);
  });

  it("reads gzipped and plain bytes and a fetch body alike", async () => {
    const gzipped = gzipSync(CURRENT);
    const fetchBody = new Response(gzipped).body;
    if (!fetchBody) throw new Error("no body");

    for (const input of [new Uint8Array(gzipped), new Uint8Array(Buffer.from(CURRENT)), fetchBody])
      expect(await collect(await openEpssScores(input))).toEqual(CURRENT_ROWS);
  });

  it("accepts Windows line endings, a byte order mark and blank lines", async () => {
    const text = `\uFEFF${CURRENT.replaceAll("\n", "\r\n")}\r\n\r\n`;

    expect(await collect(await openEpssScores(chunked(Buffer.from(text), 5)))).toEqual(CURRENT_ROWS);
  });

  it("skips rows that are not a score, counts them by reason and keeps the others", async () => {
    const text = [
      "#model_version:v2025.03.14,score_date:2026-03-28T12:55:00Z",
      "cve,epss,percentile",
      "CVE-1999-0001,0.01025,0.77197", // line 3
      "CVE-1999-0002,0.27858", // 4
      "CVE-1999-0003,0.04409,0.92305,extra", // 5
      "GHSA-xxxx-yyyy-zzzz,0.1,0.2", // 6
      "CVE-2021-44228,abc,0.2", // 7
      "CVE-2021-44229,,0.2", // 8
      "CVE-2021-44230,1.5,0.2", // 9
      "CVE-2021-44231,0.1,-0.1", // 10
      " cve-2021-45046 , 9.4e-01 , 0.99 ", // 11: tolerated
      "CVE-2020-0638,0.01655,0.82133", // 12
    ].join("\n");

    const file = await openEpssScores(text);
    const rows = await collect(file);

    expect(rows).toEqual([
      { cve: "CVE-1999-0001", score: 0.01025, percentile: 0.77197 },
      { cve: "CVE-2021-45046", score: 0.94, percentile: 0.99 },
      { cve: "CVE-2020-0638", score: 0.01655, percentile: 0.82133 },
    ]);
    expect(file.stats.rows).toBe(3);
    expect(file.stats.skipped.total).toBe(7);
    expect(file.stats.skipped.byReason).toEqual({
      "expected 3 fields, found 2": 1,
      "expected 3 fields, found 4": 1,
      "cve: not a CVE id": 1,
      "epss: not a number": 2,
      "epss: above 1": 1,
      "percentile: below 0": 1,
    });
    expect(file.stats.skipped.examples).toEqual([
      { line: 4, reason: "expected 3 fields, found 2" },
      { line: 5, reason: "expected 3 fields, found 4" },
      { line: 6, reason: "cve: not a CVE id" },
      { line: 7, reason: "epss: not a number" },
      { line: 8, reason: "epss: not a number" },
      { line: 9, reason: "epss: above 1" },
      { line: 10, reason: "percentile: below 0" },
    ]);
  });

  it.each([
    ["an empty body", "", /empty/],
    [
      "an HTML error page",
      "<!DOCTYPE html>\n<html><body>Not Found</body></html>",
      /does not start with its #model_version/,
    ],
    [
      "a file without its comment line",
      "cve,epss,percentile\nCVE-1999-0001,0.01025,0.77197\n",
      /does not start with/,
    ],
    [
      "a comment line without a score date",
      "#model_version:v2025.03.14\ncve,epss,percentile\n",
      /score_date is missing/,
    ],
    [
      "a score date that is not one",
      "#model_version:v2025.03.14,score_date:today\ncve,epss,percentile\n",
      /score_date is not a date-time/,
    ],
    [
      "another header",
      "#model_version:v1,score_date:2026-03-28T12:55:00Z\ncve,score\n",
      /not the header cve,epss,percentile/,
    ],
    [
      "a file that stops after its comment line",
      "#model_version:v1,score_date:2026-03-28T12:55:00Z\n",
      /not the header/,
    ],
  ])("refuses %s", async (_case, text, message) => {
    await expect(openEpssScores(text)).rejects.toThrow(EpssFormatError);
    await expect(openEpssScores(gzipSync(text))).rejects.toThrow(message);
  });

  it("refuses a truncated gzip download instead of ending quietly", async () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => `CVE-2024-${10_000 + index},0.00042,0.05`);
    const gzipped = gzipSync(`${CURRENT}${rows.join("\n")}\n`);
    const file = await openEpssScores(chunked(gzipped.subarray(0, gzipped.length - 64), 4096));

    await expect(collect(file)).rejects.toThrow(EpssFormatError);
    await expect(openEpssScores(gzipped.subarray(0, 10))).rejects.toThrow(
      /cannot be read \(truncated download\?\)/,
    );
  });

  it("yields rows before the input ends, and closes the input when the loop is left", async () => {
    const input = new PassThrough();
    input.write(CURRENT);
    const file = await openEpssScores(input);
    const rows: EpssScore[] = [];

    for await (const row of file.scores) {
      rows.push(row);
      if (rows.length === CURRENT_ROWS.length) break;
    }

    expect(rows).toEqual(CURRENT_ROWS);
    await expect.poll(() => input.destroyed).toBe(true);
  });

  it("closes the input on request, without reading the rows", async () => {
    const input = new PassThrough();
    input.write(CURRENT);
    const file = await openEpssScores(input);

    file.close();

    expect(file.scoreDate).toBe("2026-03-28");
    await expect.poll(() => input.destroyed).toBe(true);
  });

  it("parses 250,000 gzipped rows well within 10 seconds", async () => {
    const count = 250_000;
    const lines = ["#model_version:v2025.03.14,score_date:2026-03-28T12:55:00Z", "cve,epss,percentile"];
    for (let index = 0; index < count; index += 1)
      lines.push(
        `CVE-${2000 + (index % 26)}-${String(10_000 + index)},${((index % 1000) / 1000).toFixed(5)},${(index / count).toFixed(5)}`,
      );
    const gzipped = gzipSync(`${lines.join("\n")}\n`);

    const started = performance.now();
    const file = await openEpssScores(chunked(gzipped, 64 * 1024));
    let rows = 0;
    let last: EpssScore | undefined;
    for await (const row of file.scores) {
      rows += 1;
      last = row;
    }
    const seconds = (performance.now() - started) / 1000;

    expect(rows).toBe(count);
    expect(file.stats.skipped.total).toBe(0);
    expect(last).toEqual({ cve: "CVE-2009-259999", score: 0.999, percentile: 1 });
    expect(seconds).toBeLessThan(10);
  });
});
