import { afterEach, describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "../../lib/request-context.server.ts";
import { action, headers } from "./check.tsx";

/**
 * Issue 38: "Check your site" without JavaScript, over the visitor's budget of the public API. The
 * page answers with its form and message, status 429 and the API's Retry-After, not a bare error.
 */
const context = {
  publicConfig: developmentPublicConfig("http://site.test"),
  apiOrigin: "http://api.test",
  apiHeaders: { "x-pressguard-internal": "secret" },
  visitorApiHeaders: { "x-pressguard-internal": "secret", "x-pressguard-visitor": "203.0.113.9" },
};
const LIST = JSON.stringify([{ name: "contact-form-7", status: "active", update: "none", version: "5.3.1" }]);

function post() {
  return action({
    request: new Request("http://site.test/database/check", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ kind: "plugin", inventory: LIST }).toString(),
    }),
    context,
    params: {},
  } as unknown as Parameters<typeof action>[0]);
}

interface DataAnswer {
  data: { formError?: string; text: string; results?: unknown };
  init: { status: number; headers?: HeadersInit };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the Check your site page's action", () => {
  it("answers a refused check with the page's message, 429 and the API's Retry-After", async () => {
    const fetch = vi.fn(async () =>
      Response.json(
        { status: "error", message: "Too many requests: try again in 37 seconds." },
        { status: 429, headers: { "retry-after": "37" } },
      ),
    );
    vi.stubGlobal("fetch", fetch);
    const answer = (await post()) as unknown as DataAnswer;
    expect(answer.init.status).toBe(429);
    expect(answer.data.formError).toBe("Too many checks from your address. Try again in 37 seconds.");
    // The pasted list is kept for the next try.
    expect(answer.data.text).toBe(LIST);
    const sent = headers({ actionHeaders: new Headers(answer.init.headers) } as never);
    expect(new Headers(sent).get("retry-after")).toBe("37");
    // Counted on the visitor's budget.
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).get("x-pressguard-visitor")).toBe("203.0.113.9");
  });

  it("answers the results with no Retry-After", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ results: [] })),
    );
    const answer = (await post()) as { results?: unknown };
    expect(answer.results).toEqual([]);
  });
});
