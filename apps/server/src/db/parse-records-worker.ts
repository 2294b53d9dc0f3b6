import { parentPort, workerData } from "node:worker_threads";
import type { RecordKind } from "./import-records.ts";
import { parseLines, type WorkerMessage } from "./parse-records.ts";

/** Reads, parses, validates and hashes one seed file for {@link parseRecords}, posting groups of lines. */
const { path, kind } = workerData as { path: string; kind: RecordKind };
const post = (message: WorkerMessage<unknown>) => parentPort!.postMessage(message);

try {
  const groups = await parseLines(path, kind);
  post({ type: "opened" });
  for await (const lines of groups) post({ type: "lines", lines });
  post({ type: "done" });
} catch (error) {
  const { message, code } = error as Error & { code?: string };
  post({ type: "error", message, ...(typeof code === "string" && { code }) });
}
