import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Database, SqlRunner } from "../../db/client.ts";
import { readDataVersionStamp } from "../../db/data-version.ts";
import { writeOsvExportOffThread } from "./osv-export-thread.ts";
import { type WrittenExport, writeOsvExport } from "./osv-export-writer.ts";
import type { FeedService } from "./service.ts";

/**
 * The OSV export as files, built once per data version (decision 027): `osv.jsonl.gz` (the JSON Lines
 * export, gzip), `all.zip` (`<osv id>.json` per record, as osv.dev's buckets serve) and
 * `modified_id.csv` (`<modified>,<osv id>`, newest first, no header).
 *
 * A set is built when it is asked for, not when the server starts or the data changes: at 250,000
 * records a build takes minutes of CPU, which a server nobody downloads from should not spend on
 * every start and every publication. The first request after a change starts the build and gets the
 * previous set (with none on disk, it waits for the build). The build runs in a worker thread with
 * its own connection (osv-export-thread.ts), on the server's thread only on PGlite.
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

/** Writes one set's files into `target`, a fresh directory; `signal` stops it at its next batch. */
export type OsvExportWrite = (target: string, signal: AbortSignal) => Promise<WrittenExport>;

export interface OsvExportOptions {
  write: OsvExportWrite;
  sql: SqlRunner;
  /** Local to this instance; created when missing. */
  directory: string;
  /** The data version this instance has seen (db/data-version.ts). */
  currentVersion: () => string;
  log?: Logger;
}

/** Records read, converted and written per batch. */
const BATCH_SIZE = 250;

/**
 * How this database's sets are written: by a worker thread with its own connection, or, on PGlite,
 * whose one connection this thread holds, here between requests.
 */
export function osvExportWriterOf(
  database: Pick<Database, "connection">,
  feeds: Pick<FeedService, "osvBatches">,
  appUrl: string,
): OsvExportWrite {
  const { connection } = database;
  if (connection)
    return (target, signal) =>
      writeOsvExportOffThread({ connection, appUrl, target, batchSize: BATCH_SIZE }, signal);
  return (target, signal) => writeOsvExport(feeds, target, BATCH_SIZE, () => signal.aborted);
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

export function createOsvExports({ write, sql, directory, currentVersion, log }: OsvExportOptions) {
  let latest: OsvExportSet | null = null;
  let running: Promise<void> | null = null;
  const stopping = new AbortController();
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
      const written = await write(temp, stopping.signal);
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
    if (stopping.signal.aborted || running) return;
    if (latest && Number(latest.manifest.version) >= Number(currentVersion())) return;
    if (Date.now() - failedAt < RETRY_AFTER_FAILURE_MS) return;
    running = update()
      .catch((error: unknown) => {
        if (stopping.signal.aborted) return;
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
      stopping.abort();
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

    /**
     * With no set to serve (this instance's first build): the set once the build under way (started
     * here if none is) ends, or null after `timeoutMs`, or when the build failed.
     */
    async awaitSet(timeoutMs: number): Promise<OsvExportSet | null> {
      check();
      if (!latest && running) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
        clearTimeout(timer);
      }
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
