import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import {
  columnSnapshot,
  holdSchedule,
  productNamed,
  recordWithCve,
  type StandInDocument,
  startStandIn,
} from "./source-test-kit.ts";
import { createEpssSource } from "./sync-epss.ts";

/**
 * The EPSS source against a stand-in scores file on loopback (gzipped, as FIRST serves it): every
 * record with a scored CVE gets its score exactly, a 304 writes nothing, a CVE the file no longer
 * scores is cleared, and a broken file changes nothing and says why.
 */

const FIXTURE = readFileSync(new URL("./fixtures/epss-scores.csv", import.meta.url), "utf8");
/** The next day's file: two scores moved, CVE-2021-44228 gone, one row unreadable. */
const NEXT_DAY = [
  "#model_version:v2025.03.14,score_date:2026-03-29T12:55:00Z",
  "cve,epss,percentile",
  "CVE-1999-0001,0.01025,0.77197",
  "CVE-2009-3129,0.61,0.98",
  "CVE-2020-0638,0.01655,0.82133",
  "CVE-2024-0001,not-a-number,0.5",
  "",
].join("\n");

describe("EPSS sync", () => {
  const document: StandInDocument = {
    status: 200,
    body: gzipSync(FIXTURE),
    etag: '"e1"',
    contentType: "application/gzip",
    requests: [],
  };
  let stand: Awaited<ReturnType<typeof startStandIn>>;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let staff: Awaited<ReturnType<typeof createStaffCaller>>;
  const records: Record<string, string> = {};
  const serve = (body: string | Buffer, etag: string) => {
    document.status = 200;
    document.body = body;
    document.etag = etag;
  };
  const syncNow = () => staff.post("/api/staff/data-sources/epss/sync");
  const scoreOf = async (id: string) =>
    (
      await harness.database.sql.query<{ epss: unknown }>(
        "select epss from vulnerability_signals where vulnerability_id = $1",
        [id],
      )
    ).rows[0]?.epss ?? null;
  const snapshot = () => columnSnapshot(harness.database.sql, "epss");
  const version = () => readDataVersion(harness.database.sql);

  beforeAll(async () => {
    stand = await startStandIn(document, "/epss_scores-current.csv.gz");
    harness = await createTestApp({ EPSS_URL: stand.url });
    await holdSchedule(harness.database.sql, "epss");
    staff = await createStaffCaller(harness.app, harness.database);
    const { sql } = harness.database;
    const product = await productNamed(sql, "example-scored");
    records.old = await recordWithCve(sql, product, "CVE-1999-0001");
    records.log4j = await recordWithCve(sql, product, "CVE-2021-44228");
    records.office = await recordWithCve(sql, product, "CVE-2009-3129");
    records.unscored = await recordWithCve(sql, product, "CVE-2023-0001");
    records.noCve = await recordWithCve(sql, product, null);
  });

  afterAll(async () => {
    await harness?.close();
    await stand?.close();
  });

  it("scores every record whose CVE the file scores, numbers as numbers", async () => {
    const before = await version();
    const response = await syncNow();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      source: "epss",
      outcome: "synced",
      counts: { new: 3, changed: 0, unchanged: 0, withdrawn: 0, rejected: 0 },
      error: null,
    });
    expect(await scoreOf(records.old!)).toEqual({ score: 0.01025, percentile: 0.77197, date: "2026-03-28" });
    expect(await scoreOf(records.log4j!)).toEqual({ score: 0.94358, percentile: 0.9996, date: "2026-03-28" });
    expect(await scoreOf(records.office!)).toEqual({
      score: 0.59441,
      percentile: 0.97623,
      date: "2026-03-28",
    });
    expect(await scoreOf(records.unscored!)).toBeNull();
    expect(await scoreOf(records.noCve!)).toBeNull();
    expect(await version()).not.toBe(before);
  });

  it("polls again conditionally: a 304 is one request and no write", async () => {
    const before = await snapshot();
    const dataVersion = await version();
    const requests = document.requests.length;
    expect((await syncNow()).json()).toMatchObject({ outcome: "not_modified" });
    expect(document.requests.length).toBe(requests + 1);
    expect(document.requests.at(-1)!.headers["if-none-match"]).toBe('"e1"');
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
  });

  it("writes nothing for the same scores uncompressed under a new ETag", async () => {
    serve(FIXTURE, '"e1-plain"');
    const before = await snapshot();
    const dataVersion = await version();
    expect((await syncNow()).json()).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 0, unchanged: 3, withdrawn: 0, rejected: 0 },
    });
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
  });

  it("follows the next day's file and clears a CVE it no longer scores", async () => {
    serve(gzipSync(NEXT_DAY), '"e2"');
    const response = (await syncNow()).json();
    expect(response).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 2, unchanged: 0, withdrawn: 1, rejected: 1 },
    });
    expect(await scoreOf(records.old!)).toEqual({ score: 0.01025, percentile: 0.77197, date: "2026-03-29" });
    expect(await scoreOf(records.office!)).toEqual({ score: 0.61, percentile: 0.98, date: "2026-03-29" });
    expect(await scoreOf(records.log4j!)).toBeNull();
  });

  it("changes nothing for a truncated download, records why and keeps the last validators", async () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => `CVE-2024-${10_000 + index},0.00042,0.05`);
    const gzipped = gzipSync(`${FIXTURE}${rows.join("\n")}\n`);
    serve(gzipped.subarray(0, gzipped.length - 64), '"e3-cut"');
    const before = await snapshot();
    const dataVersion = await version();
    const response = (await syncNow()).json();
    expect(response.outcome).toBe("failed");
    expect(response.error).toMatch(
      /^The EPSS file cannot be read \(truncated download\?\).*Nothing was changed\.$/,
    );
    const status = (await staff.get("/api/staff/data-sources"))
      .json<{
        data: { source: string; last_error: string | null }[];
      }>()
      .data.find((source) => source.source === "epss")!;
    expect(status.last_error).toBe(response.error);
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
    expect(document.requests.at(-1)!.headers["if-none-match"]).toBe('"e2"');
  });

  it("changes nothing for a page that is not a scores file, or a file without scores", async () => {
    const before = await snapshot();
    serve("<html><body>Moved</body></html>", '"e4-html"');
    expect((await syncNow()).json().error).toBe(
      'The EPSS file does not start with its #model_version:…,score_date:… line: "<html><body>Moved</body></html>". Nothing was changed.',
    );
    serve("#model_version:v2025.03.14,score_date:2026-03-30T12:55:00Z\ncve,epss,percentile\n", '"e4-empty"');
    expect((await syncNow()).json().error).toBe(
      "The EPSS file holds no valid score while 2 records have one; taken for a broken file. Nothing was changed.",
    );
    expect(await snapshot()).toBe(before);
  });

  it("gives up on a file that falls silent, in the upstream's words", async () => {
    const silent = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/csv" });
      response.write("#model_version:v2025.03.14,score_date:2026-03-30T12:55:00Z\ncve,epss,percentile\n");
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const before = await snapshot();
    try {
      const source = createEpssSource({
        url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/scores.csv`,
        idleTimeoutMs: 200,
      });
      await expect(
        source.run({ database: harness.database, validators: { etag: null, lastModified: null } }),
      ).rejects.toThrow("The EPSS file sent nothing for 200 ms; the sync was abandoned.");
      expect(await snapshot()).toBe(before);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
