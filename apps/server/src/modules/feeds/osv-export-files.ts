import { createHash, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGzip } from "node:zlib";
import { Zip, ZipDeflate } from "fflate";
import type { SqlRunner } from "../../db/client.ts";
import { readDataVersionStamp } from "../../db/data-version.ts";
import type { FeedService, OsvExportRecord } from "./service.ts";

/**
 * The OSV export as files, built once per data version (decision 027): `osv.jsonl.gz` (the JSON Lines
 * export, gzip), `all.zip` (`<osv id>.json` per record, as osv.dev's buckets serve) and
 * `modified_id.csv` (`<modified>,<osv id>`, newest first, no header).
 *
 * A set is built when it is asked for, not when the server starts or the data changes: at 250,000
 * records a build takes minutes of CPU, which a server nobody downloads from should not spend on
 * every start and every publication. The first request after a change starts the build and gets the
 * previous set (or, with none on disk, the live answer).
 *
 * Each instance builds its own copy in a local directory, `<directory>/v<data version>/`, written as
 * `.tmp-v<version>-<uuid>/` and renamed into place when complete; the files are byte-identical on
 * every instance of one database (gzip without a timestamp, zip entries dated by their `modified`),
 * so an ETag or a Range answered by one instance holds on another. Until the current version is built
 * the newest complete set on disk is served; older sets are removed once a newer one is in place.
 */
const OSV_EXPORT_FILES = ["osv.jsonl.gz", "all.zip", "modified_id.csv"] as const;
export type OsvExportFileName = (typeof OSV_EXPORT_FILES)[number];

const MANIFEST = "manifest.json";
const SET_NAME = /^v(\d+)$/;
const TEMP_PREFIX = ".tmp-";
/** A temporary directory this old is a build whose process died: removed. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Records compressed into the zip between two turns of the event loop. */
const RECORDS_PER_TURN = 50;
/** After a failed build, wait this long before the next try. */
const RETRY_AFTER_FAILURE_MS = 30_000;

export interface OsvExportManifest {
  version: string;
  /** When the data version was set (app_state.updated_at), to the second: every file's Last-Modified. */
  lastModified: string;
  builtAt: string;
  records: number;
  /** Bytes of the JSON Lines once decompressed. */
  jsonlSize: number;
  /** Milliseconds the build took. */
  buildMs: number;
  files: Record<OsvExportFileName, { size: number; sha256: string }>;
}

export interface OsvExportSet {
  manifest: OsvExportManifest;
  directory: string;
  pathOf(name: OsvExportFileName): string;
}

interface Logger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface OsvExportOptions {
  feeds: Pick<FeedService, "osvBatches">;
  sql: SqlRunner;
  /** Local to this instance; created when missing. */
  directory: string;
  /** The data version this instance has seen (db/data-version.ts). */
  currentVersion: () => string;
  log?: Logger;
  batchSize?: number;
}

function setOf(directory: string, manifest: OsvExportManifest): OsvExportSet {
  return { manifest, directory, pathOf: (name) => join(directory, name) };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const toSecond = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

/**
 * A zip archive written as it is fed (fflate's streaming `Zip`): `<osv id>.json` per record, deflated,
 * dated by its `modified` (so the archive is the same bytes on every instance). fflate compresses on
 * the event loop's thread (about 6 ms per 50 records), and hands the bytes to `write`.
 */
function zipWriter(write: (chunk: Uint8Array) => void, fail: (error: Error) => void) {
  const zip = new Zip((error, chunk, final) => {
    if (error) return fail(error);
    if (chunk.length > 0) write(chunk);
    if (final) write(new Uint8Array(0));
  });
  return {
    /** Compresses the batch, letting other work in every `RECORDS_PER_TURN` records. */
    async add(batch: OsvExportRecord[]) {
      for (const [position, record] of batch.entries()) {
        const file = new ZipDeflate(`${record.id}.json`, { level: 6 });
        file.mtime = new Date(record.modified);
        zip.add(file);
        file.push(Buffer.from(record.json), true);
        if (position % RECORDS_PER_TURN === RECORDS_PER_TURN - 1) await nextTurn();
      }
    },
    end: () => zip.end(),
  };
}

/**
 * While an instance builds its first set (nothing on disk yet), the answers are made from the
 * database as the export always was: the same bytes, without validators or ranges (decision 027).
 */
export const liveExport = {
  async *jsonLines(feeds: OsvExportOptions["feeds"], since?: Date): AsyncGenerator<string> {
    for await (const batch of feeds.osvBatches()) {
      const kept = since ? batch.filter((record) => Date.parse(record.modified) > since.getTime()) : batch;
      if (kept.length > 0) yield kept.map((record) => `${record.json}\n`).join("");
    }
  },

  async *modifiedIds(feeds: OsvExportOptions["feeds"]): AsyncGenerator<string> {
    const index: { time: number; line: string; id: string }[] = [];
    for await (const batch of feeds.osvBatches())
      for (const record of batch)
        index.push({
          time: Date.parse(record.modified),
          line: `${record.modified},${record.id}\n`,
          id: record.id,
        });
    index.sort((a, b) => b.time - a.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    yield index.map((entry) => entry.line).join("");
  },

  zip(feeds: OsvExportOptions["feeds"]): Readable {
    const output = new PassThrough();
    const zip = zipWriter(
      (chunk) => (chunk.length > 0 ? output.write(chunk) : output.end()),
      (error) => output.destroy(error),
    );
    void (async () => {
      for await (const batch of feeds.osvBatches()) {
        await zip.add(batch);
        if (output.writableNeedDrain) await once(output, "drain");
      }
      zip.end();
    })().catch((error: unknown) => output.destroy(error as Error));
    return output;
  },
};

/** Writes the three files of one data version into `target` (a fresh directory). */
async function writeExport(
  feeds: OsvExportOptions["feeds"],
  target: string,
  batchSize: number,
  isStopped: () => boolean,
) {
  const gzip = createGzip();
  const gzipDone = pipeline(gzip, createWriteStream(join(target, "osv.jsonl.gz")));
  const zipFile = createWriteStream(join(target, "all.zip"));
  const zipDone = finished(zipFile);
  const zip = zipWriter(
    (chunk) => (chunk.length > 0 ? zipFile.write(chunk) : zipFile.end()),
    (error) => zipFile.destroy(error),
  );
  const index: { time: number; modified: string; id: string }[] = [];
  let jsonlSize = 0;
  try {
    for await (const batch of feeds.osvBatches(batchSize)) {
      if (isStopped()) throw new Error("the server is closing");
      const text = batch.map((record) => `${record.json}\n`).join("");
      jsonlSize += Buffer.byteLength(text);
      await zip.add(batch);
      for (const record of batch)
        index.push({ time: Date.parse(record.modified), modified: record.modified, id: record.id });
      if (!gzip.write(text)) await once(gzip, "drain");
      if (zipFile.writableNeedDrain) await once(zipFile, "drain");
      // Serialising a batch holds the event loop for a few milliseconds: let requests in between.
      await nextTurn();
    }
    gzip.end();
    zip.end();
    await Promise.all([gzipDone, zipDone]);
  } catch (error) {
    gzip.destroy();
    zipFile.destroy();
    await Promise.allSettled([gzipDone, zipDone]);
    throw error;
  }
  index.sort((a, b) => b.time - a.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await writeFile(
    join(target, "modified_id.csv"),
    index.map((entry) => `${entry.modified},${entry.id}\n`).join(""),
  );
  const newest = index[0] ? new Date(index[0].time) : null;
  return { records: index.length, jsonlSize, newest };
}

export function createOsvExports({
  feeds,
  sql,
  directory,
  currentVersion,
  log,
  batchSize = 250,
}: OsvExportOptions) {
  let latest: OsvExportSet | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let failedAt = 0;

  async function loadSet(name: string): Promise<OsvExportSet | null> {
    const setDirectory = join(directory, name);
    try {
      const manifest = JSON.parse(await readFile(join(setDirectory, MANIFEST), "utf8")) as OsvExportManifest;
      return setOf(setDirectory, manifest);
    } catch {
      return null;
    }
  }

  /**
   * The newest complete set on disk (this instance's or, in a shared directory, another's), never one
   * labelled newer than the data version seen (left by another database): it would never be rebuilt.
   */
  async function newestOnDisk(): Promise<OsvExportSet | null> {
    const names = (await readdir(directory).catch(() => [] as string[]))
      .filter((name) => SET_NAME.test(name) && Number(name.slice(1)) <= Number(currentVersion()))
      .sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)));
    for (const name of names) {
      const found = await loadSet(name);
      if (found) return found;
    }
    return null;
  }

  /** Removes every other version's set, and temporary directories left by a build that died. */
  async function removeOthers(keep: string) {
    const entries = await readdir(directory).catch(() => [] as string[]);
    for (const name of entries) {
      const path = join(directory, name);
      if (SET_NAME.test(name) && name !== keep) await rm(path, { recursive: true, force: true });
      else if (name.startsWith(TEMP_PREFIX)) {
        const info = await stat(path).catch(() => null);
        if (info && Date.now() - info.mtimeMs > STALE_TEMP_MS)
          await rm(path, { recursive: true, force: true });
      }
    }
  }

  async function build(): Promise<OsvExportSet> {
    const started = performance.now();
    // Read before the records, so the files are never older than their label.
    const stamp = await readDataVersionStamp(sql);
    const name = `v${stamp.version}`;
    const temp = join(directory, `${TEMP_PREFIX}${name}-${randomUUID()}`);
    await mkdir(temp, { recursive: true });
    try {
      const written = await writeExport(feeds, temp, batchSize, () => stopped);
      const files = {} as OsvExportManifest["files"];
      for (const file of OSV_EXPORT_FILES) {
        const path = join(temp, file);
        files[file] = { size: (await stat(path)).size, sha256: await sha256Of(path) };
      }
      const manifest: OsvExportManifest = {
        version: stamp.version,
        lastModified: toSecond(stamp.changedAt ?? written.newest ?? new Date(0)).toISOString(),
        builtAt: new Date().toISOString(),
        records: written.records,
        jsonlSize: written.jsonlSize,
        buildMs: Math.round(performance.now() - started),
        files,
      };
      await writeFile(join(temp, MANIFEST), JSON.stringify(manifest, null, 2));
      const final = join(directory, name);
      try {
        await rename(temp, final);
      } catch (error) {
        // Another instance sharing the directory renamed its (identical) set first: use that one.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
        await rm(temp, { recursive: true, force: true });
        const theirs = await loadSet(name);
        if (!theirs) throw error;
        return theirs;
      }
      log?.info({ ...manifest, directory: final }, "OSV export files built");
      return setOf(final, manifest);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** Makes the current data version's set the latest: found on disk, else built. */
  async function update() {
    const wanted = currentVersion();
    const found = await loadSet(`v${wanted}`);
    const set = found ?? (await build());
    if (!latest || Number(set.manifest.version) >= Number(latest.manifest.version)) latest = set;
    await removeOthers(`v${latest.manifest.version}`);
  }

  /** Starts a build when the served set is older than the data version (and none is running). */
  function check() {
    if (stopped || running) return;
    if (latest && Number(latest.manifest.version) >= Number(currentVersion())) return;
    if (Date.now() - failedAt < RETRY_AFTER_FAILURE_MS) return;
    running = update()
      .catch((error: unknown) => {
        if (stopped) return;
        failedAt = Date.now();
        log?.error({ err: error }, "building the OSV export files failed");
      })
      .finally(() => {
        running = null;
      });
  }

  return {
    /** Adopts the newest set on disk, served at once; nothing is built until a set is asked for. */
    async start() {
      // A directory that cannot be made fails each build (logged, tried again): the answers are live.
      await mkdir(directory, { recursive: true }).catch((error: unknown) =>
        log?.error({ err: error, directory }, "the OSV export directory cannot be created"),
      );
      latest = await newestOnDisk();
    },

    /** Waits for a build in progress; the next one is not started. */
    async stop() {
      stopped = true;
      await running;
    },

    /**
     * The newest complete set: the current data version's, or the previous one's while the current
     * one builds, a build this call starts when the served set is out of date.
     */
    current(): OsvExportSet | null {
      check();
      return latest;
    },

    /** True while this instance builds a set for a newer data version than the one it serves. */
    isBuilding(): boolean {
      return running !== null;
    },

    /**
     * A set's files were removed under us (another instance sharing the directory moved on): look
     * again at what is on disk.
     */
    async rescan(): Promise<OsvExportSet | null> {
      latest = await newestOnDisk();
      check();
      return latest;
    },

    /** Resolves once the current data version's set is served (tests, the benchmark). */
    async whenCurrent(timeoutMs = 120_000): Promise<OsvExportSet> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        check();
        if (latest && Number(latest.manifest.version) >= Number(currentVersion()) && !running) return latest;
        if (Date.now() > deadline) throw new Error("the OSV export files were not built in time");
        await (running ?? new Promise((resolve) => setTimeout(resolve, 50)));
      }
    },
  };
}

export type OsvExports = ReturnType<typeof createOsvExports>;
