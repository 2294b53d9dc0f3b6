import { describe, expect, it, vi } from "vitest";
import { withPageDataToken } from "./page-data-token.ts";

const ORIGIN = "http://site.test";

function wrapped(token: string | null) {
  const fetchImpl = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response("ok"));
  return { fetchImpl, fetch: withPageDataToken(fetchImpl, () => token, ORIGIN) };
}

const authorizationOf = (init: RequestInit | undefined) => new Headers(init?.headers).get("authorization");

describe("the page-data token (localStorage token mode, decision 021)", () => {
  it("sends the stored token with React Router's page-data requests", async () => {
    const { fetchImpl, fetch } = wrapped("t0k");
    await fetch(new URL(`${ORIGIN}/vdp/programs/all.data`), { signal: new AbortController().signal });
    await fetch(`${ORIGIN}/_root.data?_routes=root`);
    expect(fetchImpl.mock.calls.map(([, init]) => authorizationOf(init))).toEqual([
      "Bearer t0k",
      "Bearer t0k",
    ]);
  });

  it("leaves other requests, other origins and visitors without a token alone", async () => {
    const { fetchImpl, fetch } = wrapped("t0k");
    await fetch(`${ORIGIN}/api/user`);
    await fetch("https://elsewhere.test/page.data");
    const anonymous = wrapped(null);
    await anonymous.fetch(`${ORIGIN}/vdp/programs/all.data`);
    for (const [, init] of [...fetchImpl.mock.calls, ...anonymous.fetchImpl.mock.calls])
      expect(authorizationOf(init)).toBeNull();
  });
});
