import { parentPort } from "node:worker_threads";
import {
  type FeedThreadReply,
  type FeedThreadRequest,
  type SpooledEntry,
  spooledEntryOf,
} from "./feed-parser-thread.ts";
import { FeedDocumentError, parseWordfenceFeed } from "./wordfence-feed.ts";

/**
 * The worker side of `readWordfenceFeedOffThread`: the document's bytes arrive as messages, are parsed,
 * validated, mapped and hashed here, and go back as entries whose record is already the spool's line.
 */
const port = parentPort!;
const post = (reply: FeedThreadReply) => port.postMessage(reply);

/** Entries posted per message: large enough that messaging costs little. */
const ENTRIES_PER_MESSAGE = 200;

const arrived: (Uint8Array | string)[] = [];
let ended = false;
let wake: (() => void) | null = null;
port.on("message", (request: FeedThreadRequest) => {
  if (request.type === "chunk") arrived.push(request.chunk);
  else ended = true;
  wake?.();
  wake = null;
});

async function* chunks(): AsyncGenerator<Uint8Array | string> {
  for (;;) {
    const chunk = arrived.shift();
    if (chunk !== undefined) {
      post({ type: "taken" });
      yield chunk;
      continue;
    }
    if (ended) return;
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

let entries: SpooledEntry[] = [];
const flush = () => {
  if (entries.length > 0) post({ type: "entries", entries });
  entries = [];
};
try {
  for await (const entry of parseWordfenceFeed(chunks())) {
    entries.push(spooledEntryOf(entry));
    if (entries.length >= ENTRIES_PER_MESSAGE) flush();
  }
  flush();
  post({ type: "done" });
} catch (error) {
  flush();
  post({ type: "error", message: (error as Error).message, document: error instanceof FeedDocumentError });
}
port.close();
