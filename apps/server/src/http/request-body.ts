import type { IncomingMessage } from "node:http";

/** Past this, an oversized body is not read to its end: the connection is closed instead. */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;
const DISCARD_TIMEOUT_MS = 10_000;

export const bodyTooLargeMessage = (limit: number) =>
  `The request body is larger than the ${formatBytes(limit)} this address accepts.`;

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
    : `${Math.ceil(bytes / 1024)} KB`;
}

/** How reading a body ended: at its end, refused by the reader, broken off, or out of time. */
type BodyEnd = "end" | "refused" | "failed" | "timeout";

/**
 * Hands each chunk of the body to `take` until the body ends, `take` refuses a chunk (false), the
 * request fails or closes, or `timeoutMs` passes. Not `for await`: leaving that loop early would
 * destroy the request, and its socket with it.
 */
function readChunks(
  raw: IncomingMessage,
  take: (chunk: Buffer) => boolean,
  timeoutMs?: number,
): Promise<BodyEnd> {
  return new Promise((resolve) => {
    const finish = (end: BodyEnd) => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("error", onError);
      raw.off("close", onClose);
      resolve(end);
    };
    const onData = (chunk: Buffer) => {
      if (take(chunk)) return;
      raw.pause();
      finish("refused");
    };
    const onEnd = () => finish("end");
    const onError = () => finish("failed");
    const onClose = () => finish(raw.complete ? "end" : "failed");
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => finish("timeout"), timeoutMs);
    raw.on("data", onData);
    raw.on("end", onEnd);
    raw.on("error", onError);
    raw.on("close", onClose);
    raw.resume();
  });
}

/**
 * Reads the rest of an oversized request body and throws it away, so that a client which sends its
 * whole body before reading the answer (Node's fetch, most HTTP libraries) gets the 413 instead of a
 * reset connection (issue 38). A body announced above `DISCARD_LIMIT_BYTES`, or one still arriving
 * after `DISCARD_TIMEOUT_MS`, is not waited for. True when the body was read to its end.
 */
export async function discardBody(raw: IncomingMessage): Promise<boolean> {
  if (raw.readableEnded || raw.complete) return true;
  if (Number(raw.headers["content-length"]) > DISCARD_LIMIT_BYTES) return false;
  let received = 0;
  const end = await readChunks(
    raw,
    (chunk) => {
      received += chunk.length;
      return received <= DISCARD_LIMIT_BYTES;
    },
    DISCARD_TIMEOUT_MS,
  );
  return end === "end";
}

export type BodyRead =
  | { ok: true; body: Buffer }
  /** `whole`: the rest was read and thrown away, so the client reads the answer. */
  | { ok: false; reason: "too_large"; whole: boolean }
  | { ok: false; reason: "aborted" };

/**
 * A page's form body, read into memory up to `limit` bytes (the web routes hand React Router the
 * body, which would otherwise read any size into memory). Over the limit, the rest is discarded.
 */
export async function readBodyUpTo(raw: IncomingMessage, limit: number): Promise<BodyRead> {
  if (Number(raw.headers["content-length"]) > limit)
    return { ok: false, reason: "too_large", whole: await discardBody(raw) };
  const chunks: Buffer[] = [];
  let received = 0;
  const end = await readChunks(raw, (chunk) => {
    received += chunk.length;
    if (received > limit) return false;
    chunks.push(chunk);
    return true;
  });
  if (end === "end") return { ok: true, body: Buffer.concat(chunks) };
  if (end === "refused") return { ok: false, reason: "too_large", whole: await discardBody(raw) };
  return { ok: false, reason: "aborted" };
}
