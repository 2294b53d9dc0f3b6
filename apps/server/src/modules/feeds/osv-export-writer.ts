import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { finished, pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGzip } from "node:zlib";
import { Zip, ZipDeflate } from "fflate";
import type { FeedService, OsvExportRecord } from "./service.ts";

/**
 * Writes one data version's OSV export files into a fresh directory (decision 027): `osv.jsonl.gz`,
 * `all.zip` and `modified_id.csv`, the same bytes on every instance of one database. It runs in the
 * export's worker thread (osv-export-thread.ts), or on the server's thread on PGlite, whose one
 * connection a thread of its own cannot open: there it yields between records and batches.
 */

/** Records compressed into the zip between two turns of the event loop. */
const RECORDS_PER_TURN = 50;

/** What a build wrote, for its manifest. */
export interface WrittenExport {
  records: number;
  /** Bytes of the JSON Lines once decompressed. */
  jsonlSize: number;
  /** The newest record's `modified`, null without records. */
  newest: Date | null;
}

/**
 * A zip archive written as it is fed (fflate's streaming `Zip`): `<osv id>.json` per record, deflated,
 * dated by its `modified` (so the archive is the same bytes on every instance), handed to `write`.
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

/** Writes the three files of the records `feeds` reads into `target`; throws once `isStopped()`. */
export async function writeOsvExport(
  feeds: Pick<FeedService, "osvBatches">,
  target: string,
  batchSize: number,
  isStopped: () => boolean,
): Promise<WrittenExport> {
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
