import { afterEach, describe, expect, it, vi } from "vitest";
import { buildUrl, newIdempotencyKey } from "./request.ts";
import { client, fakeFetch, json, tokenAuth } from "./request-test-kit.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("request wrapper: cookie mode (CSRF)", () => {
  it("fetches the CSRF cookie first when it is absent, then sends it in X-XSRF-TOKEN (server mode)", async () => {
    const { fetch, calls } = fakeFetch(
      () =>
        new Response(null, {
          status: 204,
          headers: { "set-cookie": "XSRF-TOKEN=tok%3D1; Path=/; SameSite=Lax" },
        }),
      () => json({ id: 5 }, 201),
    );
    await client(fetch, { cookieHeader: "session=s1" }).request("/products", { method: "POST", body: {} });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET http://api.test/api/csrf-cookie",
      "POST http://api.test/api/products",
    ]);
    expect(calls[0]?.credentials).toBe("include");
    expect(calls[1]?.headers.get("x-xsrf-token")).toBe("tok=1");
    // The fresh CSRF cookie travels with the forwarded session cookie.
    expect(calls[1]?.headers.get("cookie")).toBe("session=s1; XSRF-TOKEN=tok%3D1");
  });

  it("uses an existing XSRF cookie without asking for a new one", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { cookieHeader: "XSRF-TOKEN=abc%3D%3D; session=x" }).request("/products/1", {
      method: "DELETE",
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get("x-xsrf-token")).toBe("abc==");
  });

  it("reads the XSRF cookie from document.cookie in the browser", async () => {
    vi.stubGlobal("document", { cookie: "other=1; XSRF-TOKEN=browser-token" });
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { cookieHeader: undefined }).request("/products", { method: "PATCH", body: {} });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get("x-xsrf-token")).toBe("browser-token");
    // The browser sends its own cookies; the wrapper never sets a Cookie header there.
    expect(calls[0]?.headers.get("cookie")).toBeNull();
  });

  it("sends no CSRF header and asks for no cookie on safe methods", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { cookieHeader: "session=s1" }).request("/products");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get("x-xsrf-token")).toBeNull();
    expect(calls[0]?.headers.get("cookie")).toBe("session=s1");
  });

  it("asks for the CSRF cookie once for concurrent unsafe calls", async () => {
    const { fetch, calls } = fakeFetch((call) =>
      call.url.endsWith("/csrf-cookie")
        ? new Response(null, { headers: { "set-cookie": "XSRF-TOKEN=t" } })
        : json({ ok: true }),
    );
    const api = client(fetch, { cookieHeader: "" });
    await Promise.all([
      api.request("/a", { method: "POST", body: {} }),
      api.request("/b", { method: "POST", body: {} }),
    ]);
    expect(calls.filter((call) => call.url.endsWith("/csrf-cookie"))).toHaveLength(1);
  });
});

describe("request wrapper: token mode", () => {
  it("sends the stored token as a Bearer header and skips CSRF", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { auth: tokenAuth, cookieHeader: "pressguard.token=abc123" }).request("/products", {
      method: "POST",
      body: {},
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer abc123");
    expect(calls[0]?.headers.get("x-xsrf-token")).toBeNull();
  });

  it("prefers an explicit token source", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { auth: tokenAuth, getToken: () => "from-memory" }).request("/user");
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer from-memory");
  });

  it("sends the XSRF pair for a multipart upload without a token (a signed-out PIN or link holder)", async () => {
    // Decision 021: token mode exempts only JSON bodies from the double submit; a form body could
    // come from a cross-site page, so the server still wants the pair for it.
    const { fetch, calls } = fakeFetch(
      () => new Response(null, { status: 204, headers: { "set-cookie": "XSRF-TOKEN=tok%3D2; Path=/" } }),
      () => json({ id: 1 }, 201),
    );
    const form = new FormData();
    form.append("file", new Blob(["PK"]), "fix.zip");
    await client(fetch, { auth: tokenAuth, cookieHeader: "" }).request("/report-previews/r1/attachments", {
      method: "POST",
      body: form,
    });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET http://api.test/api/csrf-cookie",
      "POST http://api.test/api/report-previews/r1/attachments",
    ]);
    expect(calls[1]?.headers.get("x-xsrf-token")).toBe("tok=2");
    expect(calls[1]?.headers.get("authorization")).toBeNull();
  });

  it("sends no XSRF pair with a token, nor for a JSON body without one", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    const form = new FormData();
    form.append("file", new Blob(["PK"]), "fix.zip");
    await client(fetch, { auth: tokenAuth, cookieHeader: "pressguard.token=abc" }).request("/upload", {
      method: "POST",
      body: form,
    });
    await client(fetch, { auth: tokenAuth, cookieHeader: "" }).request("/magic-link", {
      method: "POST",
      body: { email: "a@example.test" },
    });
    expect(calls.map((call) => call.url)).toEqual([
      "http://api.test/api/upload",
      "http://api.test/api/magic-link",
    ]);
    expect(calls.map((call) => call.headers.get("x-xsrf-token"))).toEqual([null, null]);
  });

  it("sends no Authorization header without a token", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { auth: tokenAuth }).request("/user");
    expect(calls[0]?.headers.get("authorization")).toBeNull();
  });
});

describe("newIdempotencyKey", () => {
  it("makes a new random key each time, in the characters the server accepts", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("buildUrl", () => {
  it("joins base and path with one slash and keeps absolute URLs", () => {
    expect(buildUrl("/api/", "/products")).toBe("/api/products");
    expect(buildUrl("/api", "products")).toBe("/api/products");
    expect(buildUrl("/api", "https://cdn.test/x")).toBe("https://cdn.test/x");
  });

  it("skips empty query values and repeats array values", () => {
    expect(buildUrl("/api", "/products", { page: 1, q: undefined, tag: ["a", "b"], x: null })).toBe(
      "/api/products?page=1&tag=a&tag=b",
    );
  });
});
