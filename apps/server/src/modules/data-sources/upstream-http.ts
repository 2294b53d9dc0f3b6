import { SourceError, type SourceValidators } from "./source.ts";

/**
 * A conditional GET of an upstream document (decision 035), its body streamed: `If-None-Match` and
 * `If-Modified-Since` from the last complete document, a 304 answered as "not modified", and every
 * failure — a refused key, a server error, silence — as a `SourceError` in words. Credentials go in
 * `headers` and never into a message.
 */

export interface UpstreamRequest {
  url: string;
  /** What staff read the upstream as: "The feed", "The KEV catalog". */
  name: string;
  headers?: Record<string, string>;
  validators: SourceValidators;
  /** Abandoned when nothing arrives for this long (the headers, or the next bytes of the body). */
  idleTimeoutMs?: number;
}

export type UpstreamResponse =
  | { kind: "not_modified" }
  | { kind: "ok"; body: AsyncIterable<Uint8Array>; validators: SourceValidators };

const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Retry-After in seconds (a number of seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfterOf(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function failureOf(name: string, status: number, retryAfter: string | null): SourceError {
  if (status === 401 || status === 403)
    return new SourceError(`${name} refused the API key (HTTP ${status}).`);
  if (status === 429) {
    const seconds = retryAfterOf(retryAfter);
    return new SourceError(
      `${name} asked us to slow down (HTTP 429)${seconds === undefined ? "" : `: retry after ${seconds} s`}.`,
      seconds,
    );
  }
  if (status >= 500) return new SourceError(`${name} answered with a server error (HTTP ${status}).`);
  return new SourceError(`${name} answered HTTP ${status}.`);
}

export async function fetchUpstream(request: UpstreamRequest): Promise<UpstreamResponse> {
  const idleMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let timedOut = false;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, idleMs);
    timer.unref();
  };
  const disarm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const silence = () =>
    new SourceError(
      `${request.name} sent nothing for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}; the sync was abandoned.`,
    );
  const headers: Record<string, string> = {
    accept: "application/json, */*;q=0.8",
    "user-agent": "Pressguard data sync",
    ...request.headers,
  };
  if (request.validators.etag) headers["if-none-match"] = request.validators.etag;
  if (request.validators.lastModified) headers["if-modified-since"] = request.validators.lastModified;

  arm();
  let response: Response;
  try {
    response = await fetch(request.url, { headers, signal: controller.signal, redirect: "follow" });
  } catch (error) {
    disarm();
    if (timedOut) throw silence();
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new SourceError(`${request.name} could not be reached (${cause}).`);
  }
  if (response.status === 304) {
    disarm();
    await response.body?.cancel().catch(() => {});
    return { kind: "not_modified" };
  }
  if (response.status !== 200 || !response.body) {
    disarm();
    await response.body?.cancel().catch(() => {});
    throw failureOf(request.name, response.status, response.headers.get("retry-after"));
  }
  const body = response.body;
  const validators = {
    etag: response.headers.get("etag"),
    lastModified: response.headers.get("last-modified"),
  };
  return {
    kind: "ok",
    validators,
    body: (async function* () {
      try {
        for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
          arm();
          yield chunk;
        }
      } catch (error) {
        if (timedOut) throw silence();
        const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
        throw new SourceError(`${request.name} broke off the document (${cause}); nothing was changed.`);
      } finally {
        disarm();
        if (!body.locked) await body.cancel().catch(() => {});
      }
    })(),
  };
}
