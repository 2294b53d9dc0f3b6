import { Worker } from "node:worker_threads";
import { FeedDocumentError, type FeedEntry } from "./wordfence-feed.ts";

/**
 * The Wordfence feed parsed on a worker thread (issue 34): streaming the ≈ 160 MB document through the
 * JSON parser, validating, mapping and hashing each record cost 10–12 s of CPU on the event loop, which
 * the searches served meanwhile waited for (p95 9× its quiet figure on PostgreSQL), and its garbage
 * grew the process by 180–310 MB. Here the bytes are handed to a worker with a capped heap as they
 * arrive, and the records come back as the spool's lines: the sync's own thread only compares hashes.
 */

/** An entry of the document: a record as its id, content hash and JSON line, or why it is not one. */
export type SpooledEntry =
  | { key: string; reason: string }
  | { key: string; id: string; sourceHash: string; line: string };

/** An entry of the parser as it crosses back from the worker: a record goes as its spool line. */
export const spooledEntryOf = (entry: FeedEntry): SpooledEntry =>
  "reason" in entry
    ? entry
    : {
        key: entry.key,
        id: entry.record.id,
        sourceHash: entry.record.sourceHash,
        line: JSON.stringify(entry.record),
      };

export type FeedThreadRequest = { type: "chunk"; chunk: Uint8Array | string } | { type: "end" };
export type FeedThreadReply =
  | { type: "taken" }
  | { type: "entries"; entries: SpooledEntry[] }
  | { type: "done" }
  | { type: "error"; message: string; document: boolean };

/** Chunks handed over and not yet taken by the parser: bounds the bytes waiting in the worker. */
const CHUNKS_IN_FLIGHT = 16;
/** Entries parsed and not yet taken by the caller: bounds what waits here while the caller writes. */
const ENTRIES_WAITING = 2_000;
/**
 * The parser's heap: a record at a time is small, so a leak shows as a failure, not as RSS. A small
 * young generation keeps the garbage of 160 MB of JSON from growing the process: reading a 166 MB
 * document grew RSS by 141 MB with V8's defaults and by 90–95 MB with a 4 MB young generation, at the
 * same speed (10.2–10.5 s).
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 };

/**
 * The entries of a v3 document, in order, as `parseWordfenceFeed` reads them, from a worker thread. A
 * document that is not a JSON object keyed by record id, or ends early, throws `FeedDocumentError`
 * after the entries read before the fault; a failure of `chunks` (the upstream fell silent) is thrown
 * as it is. Stopping early ends the worker and stops reading `chunks`.
 */
export async function* readWordfenceFeedOffThread(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<SpooledEntry> {
  const worker = new Worker(new URL("./wordfence-feed.worker.mjs", import.meta.url), {
    resourceLimits: WORKER_HEAP,
  });
  const waiting: SpooledEntry[] = [];
  let inFlight = 0;
  let done = false;
  let stopped = false;
  let failure: Error | null = null;
  const waiters: (() => void)[] = [];
  const changed = () => {
    for (const resume of waiters.splice(0)) resume();
  };
  const nextChange = () => new Promise<void>((resolve) => waiters.push(resolve));
  const fail = (error: Error) => {
    failure ??= error;
    changed();
  };

  worker.on("message", (reply: FeedThreadReply) => {
    if (reply.type === "taken") inFlight--;
    else if (reply.type === "entries") waiting.push(...reply.entries);
    else if (reply.type === "done") done = true;
    else fail(reply.document ? new FeedDocumentError(reply.message) : new Error(reply.message));
    changed();
  });
  worker.on("error", fail);
  worker.on("exit", (code) => {
    // After the messages it posted before it ended.
    setImmediate(() => {
      if (!done) fail(new Error(`The feed's parser stopped before the document's end (exit code ${code}).`));
    });
  });

  const pump = (async () => {
    for await (const chunk of chunks) {
      while (!stopped && !failure && (inFlight >= CHUNKS_IN_FLIGHT || waiting.length >= ENTRIES_WAITING))
        await nextChange();
      if (stopped || failure) return;
      inFlight++;
      if (typeof chunk === "string") {
        worker.postMessage({ type: "chunk", chunk } satisfies FeedThreadRequest);
        continue;
      }
      // A chunk is often a view of a larger buffer, which a message would copy whole: the chunk's own
      // bytes are copied once and moved.
      const own = new Uint8Array(chunk);
      worker.postMessage({ type: "chunk", chunk: own } satisfies FeedThreadRequest, [own.buffer]);
    }
    worker.postMessage({ type: "end" } satisfies FeedThreadRequest);
  })().catch(fail);

  try {
    for (;;) {
      if (waiting.length > 0) {
        const batch = waiting.splice(0);
        changed();
        yield* batch;
        continue;
      }
      if (failure) throw failure;
      if (done) break;
      await nextChange();
    }
    await pump;
    if (failure) throw failure;
  } finally {
    stopped = true;
    changed();
    await worker.terminate();
  }
}
