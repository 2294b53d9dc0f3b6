import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { bumpDataVersion } from "../../db/data-version.ts";
import { importVulnerabilities } from "../../db/import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_SQLI,
} from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { osvExportReady } from "../../test/osv-export.ts";
import type { OsvExportManifest } from "./osv-export-files.ts";
import { writeOsvExportOffThread } from "./osv-export-thread.ts";
import { writeOsvExport } from "./osv-export-writer.ts";
import { createFeedService } from "./service.ts";

/** The OSV export as files per data version (decision 027). */
const FIRST = [SMASH_BALLOON_XSS, MODERN_EVENTS_SSRF, WEB_DIRECTORY_SQLI];
const SECOND = [VIDEO_GALLERY_ALL_VERSIONS, CORE_SQLI];
const osvId = (record: { id: string }) => `x_PRESSGUARD-${record.id}`;

interface OsvJson {
  id: string;
  modified: string;
}

let harness: Awaited<ReturnType<typeof createTestApp>>;
const exportsDir = mkdtempSync(join(tmpdir(), "pressguard-osv-export-"));
const exportDir = join(exportsDir, "osv");
let firstVersion = 0;
let secondVersion = 0;
let firstSets: string[] = [];
/** The latest `modified` of the first import: the second import's records are all later. */
let firstModified = "";

const get = (url: string, headers: Record<string, string> = {}) =>
  harness.app.inject({ method: "GET", url, headers });
const linesOf = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as OsvJson);
const setsOnDisk = () => readdirSync(exportDir).filter((name) => !name.startsWith("."));
const manifestOf = (version: number) =>
  JSON.parse(readFileSync(join(exportDir, `v${version}`, "manifest.json"), "utf8")) as OsvExportManifest;

/** Every entry of a zip: its name and its text, read back with yauzl. */
function entriesOf(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const entries = new Map<string, string>();
      file.on("entry", (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            file.readEntry();
          });
        });
      });
      file.on("end", () => resolve(entries));
      file.on("error", reject);
      file.readEntry();
    });
  });
}

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://db.example.test", EXPORTS_DIR: exportsDir });
  expect(
    (
      await importVulnerabilities(
        harness.database,
        FIRST.map((record) => JSON.stringify(record)),
      )
    ).rejected,
  ).toEqual([]);
  firstVersion = await osvExportReady(harness.app, harness.database);
  // The set of the empty database at start goes once the first import's set is served.
  for (let wait = 0; setsOnDisk().length > 1 && wait < 100; wait++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  firstSets = setsOnDisk();
  firstModified = linesOf((await get("/api/v1/osv")).body)
    .map((record) => record.modified)
    .sort()
    .at(-1)!;
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(
    (
      await importVulnerabilities(
        harness.database,
        SECOND.map((record) => JSON.stringify(record)),
      )
    ).rejected,
  ).toEqual([]);
  secondVersion = await osvExportReady(harness.app, harness.database);
}, 120_000);

afterAll(async () => {
  await harness.close();
  rmSync(exportsDir, { recursive: true, force: true });
});

describe("the OSV export files", () => {
  it("are built for the data version, and rebuilt when it changes, the old ones removed", async () => {
    expect(firstSets).toEqual([`v${firstVersion}`]);
    expect(secondVersion).toBeGreaterThan(firstVersion);
    // The old set goes once the new one is served.
    await expect.poll(setsOnDisk, { timeout: 5000 }).toEqual([`v${secondVersion}`]);
    expect(readdirSync(join(exportDir, `v${secondVersion}`)).sort()).toEqual([
      "all.zip",
      "manifest.json",
      "modified_id.csv",
      "osv.jsonl.gz",
    ]);
    const manifest = manifestOf(secondVersion);
    expect(manifest).toMatchObject({ version: String(secondVersion), records: 5 });
  });

  it("answers the JSON Lines gzip-compressed to a client that accepts it, equal to the single-record answers", async () => {
    const response = await get("/api/v1/osv", { "accept-encoding": "gzip, deflate, br" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    expect(response.headers.vary).toContain("Accept-Encoding");
    expect(response.headers["accept-ranges"]).toBe("bytes");
    // The ETag follows the bytes (the file's SHA-256), not the data version (issue 38).
    expect(response.headers.etag).toBe(
      `"osv-osv.jsonl.gz-${manifestOf(secondVersion).files["osv.jsonl.gz"].sha256.slice(0, 32)}"`,
    );
    expect(response.headers["x-data-version"]).toBe(String(secondVersion));
    expect(new Date(String(response.headers["last-modified"])).getTime()).not.toBeNaN();
    const text = gunzipSync(response.rawPayload).toString("utf8");
    const records = linesOf(text);
    expect(records.map((record) => record.id)).toEqual([...FIRST, ...SECOND].map(osvId).sort());
    for (const record of records) expect(record).toEqual((await get(`/api/v1/osv/${record.id}`)).json());
    // Without gzip: the same lines, decompressed as they stream, with their own ETag.
    const plain = await get("/api/v1/osv");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(text);
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(text));
    expect(plain.headers.etag).not.toBe(response.headers.etag);
  });

  it("answers 304 to a matching ETag or an If-Modified-Since not older than the data", async () => {
    for (const url of ["/api/v1/osv", "/api/v1/osv/all.zip", "/api/v1/osv/modified_id.csv"]) {
      const first = await get(url, { "accept-encoding": "gzip" });
      expect(first.statusCode).toBe(200);
      const etag = String(first.headers.etag);
      const lastModified = String(first.headers["last-modified"]);
      const revalidated = await get(url, { "accept-encoding": "gzip", "if-none-match": etag });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe("");
      expect((await get(url, { "if-none-match": '"something-else"' })).statusCode).toBe(200);
      expect((await get(url, { "if-modified-since": lastModified })).statusCode).toBe(304);
      const before = new Date(new Date(lastModified).getTime() - 1000).toUTCString();
      expect((await get(url, { "if-modified-since": before })).statusCode).toBe(200);
    }
  });

  it("answers a byte range with 206 and exactly those bytes, and 416 past the end", async () => {
    const whole = await get("/api/v1/osv/all.zip");
    const size = whole.rawPayload.length;
    expect(Number(whole.headers["content-length"])).toBe(size);
    const part = await get("/api/v1/osv/all.zip", { range: "bytes=10-99" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 10-99/${size}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(10, 100));
    const tail = await get("/api/v1/osv/all.zip", { range: "bytes=-22" });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(size - 22));
    const open = await get("/api/v1/osv/all.zip", { range: `bytes=${size - 5}-` });
    expect(open.rawPayload).toEqual(whole.rawPayload.subarray(size - 5));
    // The decompressed JSON Lines count decompressed bytes.
    const plain = (await get("/api/v1/osv")).body;
    const plainPart = await get("/api/v1/osv", { range: "bytes=100-199" });
    expect(plainPart.statusCode).toBe(206);
    expect(plainPart.body).toBe(Buffer.from(plain).subarray(100, 200).toString("utf8"));
    // Past the end: 416 with the size.
    const past = await get("/api/v1/osv/all.zip", { range: `bytes=${size}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${size}`);
    expect(past.json()).toMatchObject({ status: "error" });
    // An If-Range that no longer matches gets the whole file.
    const stale = await get("/api/v1/osv/all.zip", { range: "bytes=0-9", "if-range": '"old"' });
    expect(stale.statusCode).toBe(200);
  });

  it("answers only the records modified after modified_since", async () => {
    const newer = await get(`/api/v1/osv?modified_since=${encodeURIComponent(firstModified)}`);
    expect(newer.statusCode).toBe(200);
    expect(linesOf(newer.body).map((record) => record.id)).toEqual(SECOND.map(osvId).sort());
    const gzipped = await get(`/api/v1/osv?modified_since=${encodeURIComponent(firstModified)}`, {
      "accept-encoding": "gzip",
    });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString("utf8")).toBe(newer.body);
    const all = await get("/api/v1/osv?modified_since=2000-01-01T00:00:00Z");
    expect(linesOf(all.body)).toHaveLength(5);
    const none = await get("/api/v1/osv?modified_since=2999-01-01T00:00:00%2B02:00");
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe("");
    const revalidated = await get(`/api/v1/osv?modified_since=${encodeURIComponent(firstModified)}`, {
      "if-none-match": String(newer.headers.etag),
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it("refuses unknown query parameters and a bad modified_since with 422", async () => {
    for (const url of [
      "/api/v1/osv?since=2024-01-01",
      "/api/v1/osv/all.zip?format=tar",
      "/api/v1/osv/modified_id.csv?page=2",
    ]) {
      const response = await get(url);
      expect(response.statusCode).toBe(422);
      const body = response.json() as { status: string; errors: Record<string, string[]> };
      expect(body.status).toBe("error");
      expect(Object.values(body.errors).flat().join(" ")).toMatch(
        /Unknown query parameter "(since|format|page)"/,
      );
    }
    expect((await get("/api/v1/osv?modified_since=yesterday")).statusCode).toBe(422);
  });

  it("serves all.zip with one valid JSON file per record, named by its OSV id", async () => {
    const response = await get("/api/v1/osv/all.zip");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    const entries = await entriesOf(response.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      [...FIRST, ...SECOND].map((record) => `${osvId(record)}.json`).sort(),
    );
    for (const [name, text] of entries) {
      const record = JSON.parse(text) as OsvJson;
      expect(name).toBe(`${record.id}.json`);
      expect(record).toEqual((await get(`/api/v1/osv/${record.id}`)).json());
    }
  });

  it("serves modified_id.csv: <modified>,<osv id>, newest first, no header", async () => {
    const response = await get("/api/v1/osv/modified_id.csv");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const rows = response.body
      .trimEnd()
      .split("\n")
      .map((line) => line.split(","));
    expect(rows).toHaveLength(5);
    const records = linesOf((await get("/api/v1/osv")).body);
    const modifiedOf = new Map(records.map((record) => [record.id, record.modified]));
    for (const [modified, id] of rows) expect(modifiedOf.get(id!)).toBe(modified);
    const times = rows.map(([modified]) => Date.parse(modified!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(
      rows
        .slice(0, 2)
        .map(([, id]) => id)
        .sort(),
    ).toEqual(SECOND.map(osvId).sort());
  });

  it("keeps /api/v1/osv/{id} for records: the file names are routes of their own", async () => {
    expect((await get("/api/v1/osv/all.zip")).headers["content-type"]).toBe("application/zip");
    expect((await get(`/api/v1/osv/${osvId(CORE_SQLI)}`)).json()).toMatchObject({ id: osvId(CORE_SQLI) });
    expect((await get("/api/v1/osv/other.zip")).statusCode).toBe(404);
  });

  it("keeps every file's ETag across a data version that changes no record, and changes it with a record (issue 38)", async () => {
    const URLS = ["/api/v1/osv", "/api/v1/osv/all.zip", "/api/v1/osv/modified_id.csv"];
    const gzip = { "accept-encoding": "gzip" };
    const answers = async () =>
      Promise.all(
        URLS.map(async (url) => {
          const response = await get(url, gzip);
          expect(response.statusCode, url).toBe(200);
          return { etag: String(response.headers.etag), body: response.rawPayload };
        }),
      );
    const before = await answers();
    // A change that touches no record (a program's activation bumps the data version the same way).
    await bumpDataVersion(harness.database.sql);
    const third = await osvExportReady(harness.app, harness.database);
    expect(third).toBeGreaterThan(secondVersion);
    const after = await answers();
    for (const [index, url] of URLS.entries()) {
      expect(after[index]!.body.equals(before[index]!.body), url).toBe(true);
      expect(after[index]!.etag, url).toBe(before[index]!.etag);
      // A client holding the files from before the bump is told they did not change.
      expect((await get(url, { ...gzip, "if-none-match": before[index]!.etag })).statusCode, url).toBe(304);
    }
    // A record changes: every file changes, and so does its ETag.
    await harness.database.sql.query(
      "update vulnerabilities set title = title || ' (updated)', updated_at = now() where id = $1",
      [SMASH_BALLOON_XSS.id],
    );
    await bumpDataVersion(harness.database.sql);
    await osvExportReady(harness.app, harness.database);
    const changed = await answers();
    for (const [index, url] of URLS.entries())
      expect(changed[index]!.etag, url).not.toBe(before[index]!.etag);
  }, 90_000); // two builds, each in a thread that first loads its modules

  it("documents the three routes in the OpenAPI document", async () => {
    const { paths } = (await get("/api/openapi.json")).json();
    for (const path of ["/api/v1/osv", "/api/v1/osv/all.zip", "/api/v1/osv/modified_id.csv"]) {
      expect(Object.keys(paths[path].get.responses)).toEqual(
        expect.arrayContaining(["200", "206", "304", "416"]),
      );
    }
    expect(paths["/api/v1/osv"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "modified_since",
    ]);
  });
});

describe("HEAD", () => {
  it("answers the headers of the GET, without a body", async () => {
    const got = await get("/api/v1/osv/modified_id.csv");
    const head = await harness.app.inject({ method: "HEAD", url: "/api/v1/osv/modified_id.csv" });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(got.headers["content-length"]);
    expect(head.headers.etag).toBe(got.headers.etag);
  });
});

describe("the build's worker thread", () => {
  const target = () => {
    const directory = mkdtempSync(join(tmpdir(), "pressguard-osv-thread-"));
    made.push(directory);
    return directory;
  };
  const made: string[] = [];
  afterAll(() => {
    for (const directory of made) rmSync(directory, { recursive: true, force: true });
  });

  // The defect it guards: built on the server's thread, the files took ~25 s of its event loop on the
  // bundled data, and a page from memory kept 7 % of its requests per second meanwhile (issue 37).
  it("writes the same bytes from its own connection as the server's thread does", async () => {
    const connection = harness.database.connection;
    expect(connection).not.toBeNull();
    const appUrl = "https://db.example.test";
    const here = target();
    const there = target();
    const feeds = createFeedService({ database: harness.database, appUrl });
    const inline = await writeOsvExport(feeds, here, 2, () => false);
    const threaded = await writeOsvExportOffThread(
      { connection: connection!, appUrl, target: there, batchSize: 2 },
      new AbortController().signal,
    );
    expect(threaded).toEqual(inline);
    expect(inline.records).toBe(FIRST.length + SECOND.length);
    for (const file of ["osv.jsonl.gz", "all.zip", "modified_id.csv"])
      expect(readFileSync(join(there, file)).equals(readFileSync(join(here, file))), file).toBe(true);
  });

  // The second: on CI's loaded cores a thread asked to stop was still loading its modules when the
  // grace ran out, and its end read as a crash ("stopped before the end").
  it.each([
    ["stops at its next batch when asked, and its thread ends", undefined],
    ["says the server is closing when its thread is ended before it could stop itself", 0],
  ])("%s", async (_title, stopGraceMs) => {
    const stop = new AbortController();
    stop.abort();
    await expect(
      writeOsvExportOffThread(
        {
          connection: harness.database.connection!,
          appUrl: "https://db.example.test",
          target: target(),
          batchSize: 1,
        },
        stop.signal,
        stopGraceMs,
      ),
    ).rejects.toThrow("the server is closing");
  });
});

describe("an instance that cannot write its export files", () => {
  it("answers 503 with Retry-After and the error body, and keeps running", async () => {
    // osv is a file: no set can be built (as with a full disk).
    const blocked = mkdtempSync(join(tmpdir(), "pressguard-osv-blocked-"));
    writeFileSync(join(blocked, "osv"), "not a directory");
    const other = await createTestApp({ APP_URL: "https://db.example.test", EXPORTS_DIR: blocked });
    try {
      await importVulnerabilities(other.database, [JSON.stringify(CORE_SQLI)]);
      for (const url of ["/api/v1/osv", "/api/v1/osv/all.zip", "/api/v1/osv/modified_id.csv"]) {
        const answer = await other.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
        expect(answer.statusCode, url).toBe(503);
        expect(answer.headers["retry-after"], url).toBe("30");
        expect(answer.json(), url).toEqual({
          status: "error",
          message: "The export files are being built. Please try again shortly.",
        });
      }
      expect((await other.app.inject({ method: "GET", url: "/api/v1/osv?x=1" })).statusCode).toBe(422);
      expect((await other.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await other.close();
      rmSync(blocked, { recursive: true, force: true });
    }
  });
});

describe("an instance nobody asks for the export", () => {
  it("builds no files until a request asks for them (a build costs minutes of CPU at 250,000 records)", async () => {
    const quiet = mkdtempSync(join(tmpdir(), "pressguard-osv-lazy-"));
    const other = await createTestApp({ APP_URL: "https://db.example.test", EXPORTS_DIR: quiet });
    try {
      await importVulnerabilities(other.database, [JSON.stringify(CORE_SQLI)]);
      // Past the 2 s data-version poll: the change has been seen, and still nothing is built.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(readdirSync(join(quiet, "osv"))).toEqual([]);
      // The first request starts the build, waits for it and is answered from the files.
      const first = await other.app.inject({ method: "HEAD", url: "/api/v1/osv/modified_id.csv" });
      expect(first.statusCode).toBe(200);
      expect(first.headers.etag).toMatch(/^"osv-modified_id\.csv-/);
      const version = await osvExportReady(other.app, other.database);
      expect(readdirSync(join(quiet, "osv"))).toEqual([`v${version}`]);
    } finally {
      await other.close();
      rmSync(quiet, { recursive: true, force: true });
    }
  });
});
