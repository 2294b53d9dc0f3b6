import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  countUnlisted,
  finishUpstreamWrite,
  liveRecordCount,
  storedRecordStates,
  type UpstreamRecord,
  withdrawUnlisted,
  writeUpstreamRecords,
} from "../../db/upstream-records.ts";
import { readWordfenceFeedOffThread } from "./feed-parser-thread.ts";
import {
  type DataSource,
  type DataSourceCounts,
  SourceError,
  type SourceRunContext,
  type SourceRunResult,
  ZERO_COUNTS,
} from "./source.ts";
import { fetchUpstream } from "./upstream-http.ts";
import { FeedDocumentError, WORDFENCE_SOURCE } from "./wordfence-feed.ts";

/**
 * The Wordfence Intelligence v3 source (issue 34, decision 035). A run has two phases so that bad
 * input loses nothing:
 * 1. read: the document is streamed and parsed record by record on a worker thread
 *    (feed-parser-thread.ts); each batch is compared with what is stored (reads only) and the new or
 *    changed records are spooled to a local file. A refused key, a
 *    server error, silence or a document that breaks off ends the run here, with nothing written.
 * 2. write: only after the whole document parsed, the spooled records are written in batches by the
 *    bulk import's writer, and the records of this source the document no longer lists are withdrawn.
 */

/** Records compared per statement. */
const BATCH = 500;
/**
 * Records written per transaction. Each batch is built and encoded on the event loop in one piece,
 * so requests wait behind it: at 100 a search's p95 during a first sync of 42,504 records was 33 ms
 * against 46–49 ms at 500, in the same sync time (39.7 s; bench/HISTORY.md, 2026-12-06).
 */
const WRITE_BATCH = 100;
/**
 * A document that would withdraw more than this share of the live records (and more than
 * WITHDRAW_FLOOR of them) is taken for a broken one: nothing is written.
 */
const WITHDRAW_SHARE_LIMIT = 0.5;
const WITHDRAW_FLOOR = 100;
const REJECTIONS_KEPT = 50;

export interface WordfenceSourceOptions {
  feedUrl: string;
  apiKey: string;
  idleTimeoutMs?: number;
}

export function createWordfenceSource(options: WordfenceSourceOptions | null): DataSource {
  return {
    name: "wordfence",
    label: "Wordfence Intelligence (v3 production feed)",
    configured: options !== null,
    run: (context) => {
      if (!options) throw new SourceError("WORDFENCE_API_KEY is not set.");
      return syncWordfence(context, options);
    },
    held: async (database) => ({
      count: await liveRecordCount(database.sql, WORDFENCE_SOURCE),
      what: "live Wordfence records (withdrawn ones not counted)",
    }),
  };
}

async function writeLine(stream: WriteStream, line: string): Promise<void> {
  if (!stream.write(line)) await new Promise<void>((resolve) => stream.once("drain", resolve));
}

async function syncWordfence(
  { database, validators }: SourceRunContext,
  options: WordfenceSourceOptions,
): Promise<SourceRunResult> {
  const response = await fetchUpstream({
    url: options.feedUrl,
    name: "The feed",
    headers: { authorization: `Bearer ${options.apiKey}` },
    validators,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  if (response.kind === "not_modified") return { kind: "not_modified" };

  const counts: DataSourceCounts = { ...ZERO_COUNTS };
  const rejections: { id: string; reason: string }[] = [];
  const reject = (id: string, reason: string) => {
    counts.rejected++;
    if (rejections.length < REJECTIONS_KEPT) rejections.push({ id, reason });
  };
  /** Every id the document lists validly, for the withdrawal. */
  const listed = new Set<string>();
  /** The spooled records and whether each is new or changed. */
  const staged = new Map<string, "new" | "changed">();
  const directory = await mkdtemp(join(tmpdir(), "pressguard-wordfence-"));
  const spoolPath = join(directory, "changed.jsonl");
  const spool = createWriteStream(spoolPath);
  const spoolClosed = new Promise<void>((resolve, reject) => {
    spool.once("close", resolve);
    spool.once("error", reject);
  });
  spoolClosed.catch(() => {});
  try {
    // 1. Read: compare and spool, no write.
    let pending: { id: string; sourceHash: string; line: string }[] = [];
    const compare = async () => {
      const batch = pending;
      pending = [];
      const stored = await storedRecordStates(
        database.sql,
        batch.map((record) => record.id),
      );
      for (const record of batch) {
        const state = stored.get(record.id);
        if (state && state.source !== WORDFENCE_SOURCE) {
          reject(record.id, `a ${state.source} record has this id; a feed never overwrites it`);
        } else if (state && state.sourceHash === record.sourceHash && !state.withdrawn) {
          counts.unchanged++;
        } else {
          staged.set(record.id, state ? "changed" : "new");
          await writeLine(spool, `${record.line}\n`);
        }
      }
    };
    try {
      for await (const entry of readWordfenceFeedOffThread(response.body)) {
        if ("reason" in entry) {
          reject(entry.key, entry.reason);
          continue;
        }
        if (listed.has(entry.id)) {
          reject(entry.key, "listed twice in the document");
          continue;
        }
        listed.add(entry.id);
        pending.push(entry);
        if (pending.length >= BATCH) await compare();
      }
    } catch (error) {
      if (error instanceof FeedDocumentError) throw new SourceError(`${error.message} Nothing was changed.`);
      throw error;
    }
    await compare();
    spool.end();
    await spoolClosed;

    const listedIds = [...listed];
    const live = await liveRecordCount(database.sql, WORDFENCE_SOURCE);
    const unlisted = await countUnlisted(database.sql, WORDFENCE_SOURCE, listedIds);
    if (listed.size === 0 && live > 0) {
      throw new SourceError("The feed's document held no valid record. Nothing was changed.");
    }
    if (unlisted > WITHDRAW_FLOOR && unlisted > live * WITHDRAW_SHARE_LIMIT) {
      throw new SourceError(
        `The feed's document would withdraw ${unlisted} of ${live} records; taken for a broken document. Nothing was changed.`,
      );
    }

    // 2. Write: the spooled records, then the withdrawals.
    let inserted = 0;
    let batch: UpstreamRecord[] = [];
    const write = async () => {
      const result = await writeUpstreamRecords(database, batch);
      batch = [];
      inserted += result.inserted;
      for (const { id, reason } of result.rejected) {
        staged.delete(id);
        reject(id, reason);
      }
    };
    const lines = createInterface({
      input: createReadStream(spoolPath),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (line === "") continue;
      batch.push(JSON.parse(line) as UpstreamRecord);
      if (batch.length >= WRITE_BATCH) await write();
    }
    if (batch.length > 0) await write();
    for (const kind of staged.values()) counts[kind]++;
    counts.withdrawn = await withdrawUnlisted(database.sql, WORDFENCE_SOURCE, listedIds);
    const wrote = staged.size > 0 || counts.withdrawn > 0;
    if (wrote) await finishUpstreamWrite(database, { inserted });
    return { kind: "synced", counts, rejections, validators: response.validators, wrote };
  } finally {
    if (!spool.closed) spool.destroy();
    await rm(directory, { recursive: true, force: true });
  }
}
