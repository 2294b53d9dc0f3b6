import { AuthClientConfig, DEFAULT_AUTH_CLIENT_CONFIG } from "@pressguard/domain";
import { vi } from "vitest";
import { type ApiClientOptions, createApiClient } from "./request.ts";

/** What the request wrapper's tests share: a recording fetch, JSON answers, a client around them. */

const cookieAuth = AuthClientConfig.parse(DEFAULT_AUTH_CLIENT_CONFIG);
export const tokenAuth = AuthClientConfig.parse({
  ...DEFAULT_AUTH_CLIENT_CONFIG,
  mode: "token",
  tokenStorage: "cookie",
});

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Responder = (call: Call, index: number) => Response | Promise<Response>;

/** A fetch that records every call and answers with the responders in turn (the last one repeats). */
export function fakeFetch(...responders: Responder[]) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: Call = {
      url: String(input),
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: init.body,
      credentials: init.credentials,
    };
    calls.push(call);
    const responder = responders[Math.min(calls.length - 1, responders.length - 1)];
    if (!responder) throw new Error("no responder");
    return responder(call, calls.length - 1);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function client(fetch: typeof globalThis.fetch, options: Partial<ApiClientOptions> = {}) {
  return createApiClient({
    baseUrl: "http://api.test/api",
    auth: cookieAuth,
    fetch,
    cookieHeader: null,
    retryDelayMs: () => 0,
    onError: () => {},
    ...options,
  });
}
