import type { AuthClientConfig } from "@pressguard/domain";
import { reportError } from "../error-reporting.ts";
import { DEFAULT_ERROR_MESSAGE } from "../errors.ts";
import { ApiError, flattenFieldErrors, normaliseFieldErrors, REQUEST_ABORTED_MESSAGE } from "./api-error.ts";
import { parseCookieHeader, parseSetCookie, serializeCookies } from "./cookies.ts";
import { readStoredToken } from "./token-storage.ts";

/**
 * The request wrapper of the specification (§7, §8). Every call to the API base carries
 * credentials and `Accept: application/json`; failures become one `ApiError`.
 * It runs in the browser (relative base, the browser's cookies) and during SSR (absolute base,
 * the visitor's forwarded `Cookie` header).
 */

/** Spec §7, §9: API timeout and retries. */
export const API_TIMEOUT_MS = 15_000;
export const API_RETRY = 3;

type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: HttpMethod;
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** Sent as JSON, unless it is a FormData (then as multipart). */
  body?: unknown;
  headers?: Record<string, string>;
  /** A caller timeout in ms; when it fires the call fails with 408 (spec §7). Default 15000. */
  timeout?: number;
  /** Retries for this call; only idempotent methods (or a POST with an Idempotency-Key) are retried. Default 3. */
  retry?: number;
  signal?: AbortSignal;
  /**
   * Sees the answer that settles the call (after retries), success or failure, before its body is
   * read: a route action that calls the API for the visitor reads its headers there (the preview
   * cookie a PIN sets, a 429's Retry-After) to send them on to the browser.
   */
  onResponse?: (response: Response) => void;
}

export interface ApiClientOptions {
  /** `/api` in the browser, `http://127.0.0.1:3000/api` during SSR. */
  baseUrl: string;
  auth: Pick<AuthClientConfig, "mode" | "csrf" | "endpoints" | "tokenStorage">;
  fetch?: typeof fetch;
  /**
   * The visitor's `Cookie` header, forwarded during SSR. Passing it (even null) puts the client in
   * server mode: cookies are read from it and sent on; otherwise `document.cookie` is used.
   */
  cookieHeader?: string | null;
  /** Headers every call carries (during SSR: the load context's `apiHeaders`). */
  headers?: Record<string, string>;
  /** Overrides how the bearer token is found in token mode. */
  getToken?: () => string | null | undefined;
  retry?: number;
  timeout?: number;
  /** Pause before retry number `attempt` (1-based). Default 250 ms × attempt. */
  retryDelayMs?: (attempt: number) => number;
  /** Receives every error answer; defaults to `reportError` (which skips 300–499). */
  onError?: (error: ApiError) => void;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: ApiRequestOptions): Promise<T>;
}

const IDEMPOTENT_METHODS = new Set<string>(["GET", "HEAD", "PUT", "DELETE"]);
/** The server stores the answer of a POST sent with this header and replays it to a retry (24 h). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** A new random Idempotency-Key (128 bits, hex): one per submission, reused by its retries. */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
const UNSAFE_METHODS = new Set<string>(["POST", "PUT", "PATCH", "DELETE"]);
/** Answers worth another try: the server or a gateway failed, not the request. */
const RETRY_STATUSES = new Set([408, 500, 502, 503, 504]);
/**
 * With an Idempotency-Key, a 409 may be the server still holding the key of an attempt that failed
 * (it frees it within seconds): worth another try too, with the same key.
 */
const KEYED_RETRY_STATUSES = new Set([...RETRY_STATUSES, 409]);

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const serverMode = options.cookieHeader !== undefined;
  const defaultRetry = options.retry ?? API_RETRY;
  const defaultTimeout = options.timeout ?? API_TIMEOUT_MS;
  const retryDelay = options.retryDelayMs ?? ((attempt: number) => 250 * attempt);
  const onError = options.onError ?? reportError;
  /** Cookies set by answers during SSR (the CSRF cookie), on top of the forwarded ones. */
  const cookieJar = new Map<string, string>();
  let pendingCsrf: Promise<void> | null = null;

  function currentCookies(): Map<string, string> {
    const source = serverMode ? options.cookieHeader : globalThis.document?.cookie;
    const cookies = parseCookieHeader(source);
    for (const [name, value] of cookieJar) cookies.set(name, value);
    return cookies;
  }

  function baseHeaders(): Headers {
    const headers = new Headers({ ...options.headers, Accept: "application/json" });
    if (serverMode) {
      // SSR calls the API on this same server: compressing its answers would only cost CPU at both ends.
      headers.set("Accept-Encoding", "identity");
      const cookies = currentCookies();
      if (cookies.size > 0) headers.set("Cookie", serializeCookies(cookies));
    }
    return headers;
  }

  /** Cookie mode: GET the CSRF endpoint once so that the XSRF cookie exists (spec §7). */
  async function ensureCsrfCookie(): Promise<string | undefined> {
    const cookieName = options.auth.csrf.cookie;
    const existing = currentCookies().get(cookieName);
    if (existing) return existing;
    pendingCsrf ??= (async () => {
      const response = await fetchImpl(buildUrl(options.baseUrl, options.auth.endpoints.csrf), {
        method: "GET",
        credentials: "include",
        headers: baseHeaders(),
      });
      if (serverMode) {
        for (const line of response.headers.getSetCookie()) {
          const cookie = parseSetCookie(line);
          if (cookie) cookieJar.set(cookie.name, cookie.value);
        }
      }
      await response.body?.cancel();
    })().finally(() => {
      pendingCsrf = null;
    });
    await pendingCsrf;
    return currentCookies().get(cookieName);
  }

  async function request<T>(path: string, requestOptions: ApiRequestOptions = {}): Promise<T> {
    let method: HttpMethod = requestOptions.method ?? "GET";
    let body: BodyInit | undefined;
    const headers = baseHeaders();
    for (const [name, value] of Object.entries(requestOptions.headers ?? {})) headers.set(name, value);

    const payload = requestOptions.body;
    if (payload instanceof FormData) {
      // Spec §7: a PUT with form data goes as POST with `_method=PUT` (multipart cannot be PUT).
      if (method === "PUT") {
        method = "POST";
        body = copyFormData(payload, ["_method", "PUT"]);
      } else {
        body = payload;
      }
    } else if (payload !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(payload);
    }

    const sendCsrfPair = async () => {
      const token = await ensureCsrfCookie();
      if (token) headers.set(options.auth.csrf.header, token);
      // During SSR the CSRF cookie just received must travel with the forwarded ones.
      if (serverMode && cookieJar.size > 0) headers.set("Cookie", serializeCookies(currentCookies()));
    };
    if (options.auth.mode === "cookie" && UNSAFE_METHODS.has(method)) {
      await sendCsrfPair();
    } else if (options.auth.mode === "token") {
      const token =
        options.getToken?.() ??
        readStoredToken(options.auth.tokenStorage ?? "cookie", {
          cookieString: serverMode ? options.cookieHeader : globalThis.document?.cookie,
        });
      if (token) headers.set("Authorization", `Bearer ${token}`);
      // Decision 021: without a token, only a JSON body is exempt from the double submit (no
      // cross-site page can send one); a multipart upload or a bodyless call (a PIN or e-mail link
      // holder's fix file) still sends the XSRF pair, as the server asks.
      else if (UNSAFE_METHODS.has(method) && !headers.get("Content-Type")?.startsWith("application/json"))
        await sendCsrfPair();
    }

    const url = buildUrl(options.baseUrl, path, requestOptions.query);
    // A POST with an Idempotency-Key is safe to send again: the server answers a repeat with the
    // first answer (the key travels unchanged in every attempt).
    const keyed = headers.has(IDEMPOTENCY_KEY_HEADER);
    const retries = IDEMPOTENT_METHODS.has(method) || keyed ? (requestOptions.retry ?? defaultRetry) : 0;
    const retryStatuses = keyed ? KEYED_RETRY_STATUSES : RETRY_STATUSES;
    const timeout = requestOptions.timeout ?? defaultTimeout;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchWithTimeout(
          fetchImpl,
          url,
          { method, headers, body, credentials: "include" },
          timeout,
          requestOptions.signal,
        );
      } catch (error) {
        if (error instanceof ApiError || requestOptions.signal?.aborted) throw error;
        if (attempt < retries) {
          await sleep(retryDelay(attempt + 1));
          continue;
        }
        throw new ApiError(0, "The server could not be reached.", { cause: error });
      }

      if (!response.ok && retryStatuses.has(response.status) && attempt < retries) {
        await response.body?.cancel();
        await sleep(retryDelay(attempt + 1));
        continue;
      }

      requestOptions.onResponse?.(response);
      const data = await readBody(response);
      if (!response.ok || isErrorBody(data)) {
        const error = toApiError(response, data);
        if (error.status === 419) console.warn("CSRF token mismatch (419): the XSRF cookie was refused.");
        onError(error);
        throw error;
      }
      return data as T;
    }
  }

  return { request };
}

/** Joins the base and the path and appends the query; absolute URLs are kept as they are. */
export function buildUrl(baseUrl: string, path: string, query?: ApiRequestOptions["query"]): string {
  const joined = /^https?:\/\//i.test(path)
    ? path
    : `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(name, String(item));
    }
  }
  const queryString = search.toString();
  if (!queryString) return joined;
  return `${joined}${joined.includes("?") ? "&" : "?"}${queryString}`;
}

async function fetchWithTimeout(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeout: number,
  callerSignal: AbortSignal | undefined,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  callerSignal?.addEventListener("abort", forwardAbort, { once: true });
  try {
    return await fetchImpl(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new ApiError(408, REQUEST_ABORTED_MESSAGE, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forwardAbort);
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const contentType = response.headers.get("content-type") ?? "";
  if (/[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function isErrorBody(data: unknown): data is { status: "error" } {
  return isRecord(data) && data.status === "error";
}

function toApiError(response: Response, data: unknown): ApiError {
  const record = isRecord(data) ? data : {};
  const errors = normaliseFieldErrors(record.errors);
  const bodyMessage = typeof record.message === "string" && record.message ? record.message : undefined;
  const message = errors
    ? flattenFieldErrors(errors)
    : (bodyMessage ?? (response.statusText || DEFAULT_ERROR_MESSAGE));
  return new ApiError(response.status, message, { errors, data });
}

function copyFormData(source: FormData, extra: [string, string]): FormData {
  const copy = new FormData();
  for (const [name, value] of source) copy.append(name, value);
  copy.append(...extra);
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
