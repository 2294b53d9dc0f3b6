import { Worker } from "node:worker_threads";
import type { WrittenExport } from "./osv-export-writer.ts";

/**
 * The OSV export's files written by a worker thread with its own database connection (issue 37): the
 * records' OSV documents, their JSON and the zip's deflate were ~25 s of the server's event loop per
 * build on the bundled data, during which a page from memory kept 7 % of its requests per second.
 */

export interface OsvExportThreadData {
  connection: { url: string; readUrl?: string | undefined };
  appUrl: string;
  target: string;
  batchSize: number;
  /** The thread's nice value on Linux (0 keeps the server's). */
  niceness: number;
}
export type OsvExportThreadRequest = { type: "stop" };
export type OsvExportThreadReply =
  | { type: "done"; written: WrittenExport }
  | { type: "error"; message: string };

/**
 * The build's heap: a batch of records, the `modified_id.csv` index and fflate's entries for the zip's
 * central directory, about 1.5 KB a record (56 MB at 30,000 records, measured with forced GCs). A cap
 * close to that made V8 collect all the time: 192 MB (young generation 8 MB) took the build of the
 * bundled data from 22 to 47–70 s and 72–114 s of CPU; 1 GB leaves room for 250,000 records.
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 1024 };
/** After `stop`, the build ends at its next batch; a thread still running then is terminated. */
const STOP_GRACE_MS = 10_000;
/** Background work: under load the requests come first (Linux; nice 10 is a tenth of a normal share). */
const BUILD_NICENESS = 10;

/** Writes the files into `target` from a worker thread; `signal` stops it at its next batch. */
export function writeOsvExportOffThread(
  options: Omit<OsvExportThreadData, "niceness">,
  signal: AbortSignal,
  stopGraceMs = STOP_GRACE_MS,
): Promise<WrittenExport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./osv-export.worker.mjs", import.meta.url), {
      workerData: { ...options, niceness: BUILD_NICENESS } satisfies OsvExportThreadData,
      resourceLimits: WORKER_HEAP,
    });
    let reply: OsvExportThreadReply | null = null;
    let grace: NodeJS.Timeout | null = null;
    let stopped = false;
    const stop = () => {
      stopped = true;
      worker.postMessage({ type: "stop" } satisfies OsvExportThreadRequest);
      grace = setTimeout(() => void worker.terminate(), stopGraceMs);
      grace.unref();
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    worker.on("message", (message: OsvExportThreadReply) => {
      reply = message;
    });
    let failure: Error | null = null;
    worker.on("error", (error) => {
      failure = error;
    });
    worker.on("exit", (code) => {
      signal.removeEventListener("abort", stop);
      if (grace) clearTimeout(grace);
      const ended = reply as OsvExportThreadReply | null;
      if (ended?.type === "done") resolve(ended.written);
      else if (ended?.type === "error") reject(new Error(ended.message));
      // Terminated after the grace: still loading its modules on a loaded machine, or stuck.
      else if (stopped) reject(new Error("the server is closing"));
      else
        reject(failure ?? new Error(`The OSV export's thread stopped before the end (exit code ${code}).`));
    });
  });
}
