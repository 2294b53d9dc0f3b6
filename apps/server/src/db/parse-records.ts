import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";
import type { z } from "zod";
import {
  describeIssues,
  type ImportSource,
  PluginRecord,
  parseJsonLine,
  type RecordKind,
  readLines,
  VulnerabilityRecord,
} from "./import-records.ts";

/** The schema each kind of seed record is validated against. */
const RECORD_SCHEMAS = { vulns: VulnerabilityRecord, plugins: PluginRecord } as const;
export type RecordOf<Kind extends RecordKind> = z.infer<(typeof RECORD_SCHEMAS)[Kind]>;

/** A record with the SHA-256 of the line it was read from. */
export type Hashed<Record> = Record & { sourceHash: string };

/** One non-blank line, numbered from 1: the record it holds, or why it holds none. */
export type ParsedLine<Record> =
  | { line: number; record: Hashed<Record>; reason?: undefined }
  | { line: number; reason: string; record?: undefined };

/** Lines parsed per message from the worker: large enough that messaging costs little. */
const LINES_PER_MESSAGE = 500;

function parseLine<Kind extends RecordKind>(
  kind: Kind,
  line: number,
  text: string,
): ParsedLine<RecordOf<Kind>> {
  const json = parseJsonLine(text);
  if (!json.ok) return { line, reason: json.reason };
  const parsed = RECORD_SCHEMAS[kind].safeParse(json.value);
  if (!parsed.success) return { line, reason: describeIssues(parsed.error) };
  const sourceHash = createHash("sha256").update(text).digest("hex");
  return { line, record: { ...(parsed.data as RecordOf<Kind>), sourceHash } };
}

/** The parsed lines of a source, in order, in groups; parsed on the calling thread. */
export async function parseLines<Kind extends RecordKind>(
  source: ImportSource,
  kind: Kind,
): Promise<AsyncIterable<ParsedLine<RecordOf<Kind>>[]>> {
  const lines = await readLines(source);
  return (async function* () {
    let group: ParsedLine<RecordOf<Kind>>[] = [];
    for await (const { line, text } of lines) {
      group.push(parseLine(kind, line, text));
      if (group.length >= LINES_PER_MESSAGE) {
        yield group;
        group = [];
      }
    }
    if (group.length > 0) yield group;
  })();
}

/** What the worker posts: the file opened, a group of parsed lines, the end, or a failure. */
export type WorkerMessage<Record> =
  | { type: "opened" }
  | { type: "lines"; lines: ParsedLine<Record>[] }
  | { type: "done" }
  | { type: "error"; message: string; code?: string };

/**
 * The parsed lines of a source, in order, in groups. A file is read, parsed, validated and hashed on a
 * worker thread, while the caller writes the previous groups to the database: PGlite runs on the
 * calling thread, so on two cores the parsing (a quarter of a first start's import) costs no time. A
 * file that cannot be opened rejects here, before anything is imported. In-memory lines are parsed on
 * the calling thread.
 */
export async function parseRecords<Kind extends RecordKind>(
  source: ImportSource,
  kind: Kind,
): Promise<AsyncIterable<ParsedLine<RecordOf<Kind>>[]>> {
  if (typeof source !== "string") return parseLines(source, kind);
  const worker = new Worker(new URL("./parse-records.worker.mjs", import.meta.url), {
    workerData: { path: source, kind },
  });
  const queue: WorkerMessage<RecordOf<Kind>>[] = [];
  let wake: (() => void) | null = null;
  const push = (message: WorkerMessage<RecordOf<Kind>>) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on("message", push);
  worker.on("error", (error: Error & { code?: string }) =>
    push({ type: "error", message: error.message, ...(error.code && { code: error.code }) }),
  );
  worker.on("exit", (code) => {
    if (code !== 0) push({ type: "error", message: `the record parser exited with code ${code}` });
  });
  const next = async (): Promise<WorkerMessage<RecordOf<Kind>>> => {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift()!;
  };
  const failure = (message: Extract<WorkerMessage<unknown>, { type: "error" }>) =>
    Object.assign(new Error(message.message), message.code ? { code: message.code } : {});

  const first = await next();
  if (first.type === "error") {
    await worker.terminate();
    throw failure(first);
  }
  return (async function* () {
    try {
      for (;;) {
        const message = await next();
        if (message.type === "done") return;
        if (message.type === "error") throw failure(message);
        if (message.type === "lines") yield message.lines;
      }
    } finally {
      await worker.terminate();
    }
  })();
}
