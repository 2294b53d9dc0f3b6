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

/**
 * Reads the rest of an oversized request body and throws it away, so that a client which sends its
 * whole body before reading the answer (Node's fetch, most HTTP libraries) gets the 413 instead of a
 * reset connection (issue 38). A body announced above `DISCARD_LIMIT_BYTES`, or one still arriving
 * after `DISCARD_TIMEOUT_MS`, is not waited for. True when the body was read to its end.
 */
export function discardBody(raw: IncomingMessage): Promise<boolean> {
  if (raw.readableEnded || raw.complete) return Promise.resolve(true);
  const announced = Number(raw.headers["content-length"]);
  if (announced > DISCARD_LIMIT_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("error", onError);
      raw.off("close", onClose);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DISCARD_LIMIT_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), DISCARD_TIMEOUT_MS);
    raw.on("data", onData);
    raw.on("end", onEnd);
    raw.on("error", onError);
    raw.on("close", onClose);
    raw.resume();
  });
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
  const read = await new Promise<Buffer | "too large" | "failed">((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: Buffer | "too large" | "failed") => {
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("error", onFailed);
      raw.off("close", onClose);
      resolve(outcome);
    };
    // Not `for await`: leaving that loop early would destroy the request, and its socket with it.
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        raw.pause();
        finish("too large");
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onFailed = () => finish("failed");
    const onClose = () => finish(raw.complete ? Buffer.concat(chunks) : "failed");
    raw.on("data", onData);
    raw.on("end", onEnd);
    raw.on("error", onFailed);
    raw.on("close", onClose);
  });
  if (Buffer.isBuffer(read)) return { ok: true, body: read };
  if (read === "failed") return { ok: false, reason: "aborted" };
  return { ok: false, reason: "too_large", whole: await discardBody(raw) };
}
