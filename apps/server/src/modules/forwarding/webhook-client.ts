import http from "node:http";
import https from "node:https";
import { assertPublicUrl, BlockedAddressError, guardedLookup } from "./ssrf.ts";

const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_CHARS = 1_000;
/** Enough of the body for the excerpt; the rest is not read. */
const MAX_RESPONSE_BYTES = 16 * 1024;

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowLoopback: boolean;
  /** The whole exchange, including a receiver that sends headers and then hangs. */
  timeoutMs?: number;
}

export interface WebhookResult {
  /** Null when no response came (refused, timed out, blocked address). */
  statusCode: number | null;
  succeeded: boolean;
  latencyMs: number;
  /** The first 1,000 characters of the response body, or the error. */
  excerpt: string;
}

function errorText(error: unknown, timeoutMs: number): string {
  if (error instanceof BlockedAddressError) return `Refused: ${error.message}`;
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"))
    return `Timed out after ${timeoutMs / 1000} s.`;
  return error instanceof Error ? error.message : String(error);
}

function send(url: URL, request: WebhookRequest, signal: AbortSignal) {
  const client = url.protocol === "https:" ? https : http;
  const Agent = url.protocol === "https:" ? https.Agent : http.Agent;
  const agent = new Agent({ lookup: guardedLookup(request.allowLoopback) as never, keepAlive: false });
  return new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: "POST",
        agent,
        signal,
        headers: { ...request.headers, "Content-Length": String(Buffer.byteLength(request.body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) response.destroy();
        });
        const finish = () =>
          resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        response.on("end", finish);
        response.on("close", () => (size >= MAX_RESPONSE_BYTES ? finish() : undefined));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  }).finally(() => agent.destroy());
}

/**
 * POSTs one webhook, outside any transaction: the host is checked before connecting and again by
 * the agent's lookup, redirects are not followed (a 3xx is a failure), and the whole exchange is
 * cut at the timeout.
 */
export async function postWebhook(request: WebhookRequest): Promise<WebhookResult> {
  const timeoutMs = request.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const url = new URL(request.url);
    await assertPublicUrl(url, request.allowLoopback);
    const response = await send(url, request, AbortSignal.timeout(timeoutMs));
    return {
      statusCode: response.statusCode,
      succeeded: response.statusCode >= 200 && response.statusCode < 300,
      latencyMs: latency(),
      excerpt: response.body.slice(0, RESPONSE_EXCERPT_CHARS),
    };
  } catch (error) {
    return {
      statusCode: null,
      succeeded: false,
      latencyMs: latency(),
      excerpt: errorText(error, timeoutMs).slice(0, RESPONSE_EXCERPT_CHARS),
    };
  }
}
