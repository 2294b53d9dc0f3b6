import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_ERROR_MESSAGE } from "../errors.ts";
import { ApiError, flattenFieldErrors, REQUEST_ABORTED_MESSAGE } from "./api-error.ts";
import { API_RETRY, API_TIMEOUT_MS } from "./request.ts";
import { client, fakeFetch, json } from "./request-test-kit.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("request wrapper: what every call carries", () => {
  it("asks the API for uncompressed answers during SSR, where it runs on the same machine", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { cookieHeader: "session=s1" }).request("/products");
    expect(calls[0]?.headers.get("accept-encoding")).toBe("identity");
    await client(fetch, { cookieHeader: undefined }).request("/products");
    expect(calls[1]?.headers.get("accept-encoding")).toBeNull();
  });

  it("carries the headers it was made with on every call (the renderer's mark, decision 028)", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    const api = client(fetch, { cookieHeader: null, headers: { "x-pressguard-internal": "secret" } });
    await api.request("/v1/statistics/counts");
    await api.request("/v1/check", { method: "POST", body: { items: [] } });
    // The two calls and the CSRF cookie's fetch before the POST.
    expect(calls.map((call) => call.headers.get("x-pressguard-internal"))).toEqual([
      "secret",
      "secret",
      "secret",
    ]);
    expect(calls[0]?.headers.get("accept")).toBe("application/json");
  });

  it("sends credentials and the JSON accept header to the configured base", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    const data = await client(fetch).request("/products", { query: { page: 2, "filter[tab]": "present" } });
    expect(data).toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("http://api.test/api/products?page=2&filter%5Btab%5D=present");
    expect(calls[0]?.credentials).toBe("include");
    expect(calls[0]?.headers.get("accept")).toBe("application/json");
  });

  it("uses the specification's defaults: 3 retries, 15000 ms", () => {
    expect(API_RETRY).toBe(3);
    expect(API_TIMEOUT_MS).toBe(15_000);
  });

  it("sends a plain object as JSON", async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response(null, { headers: { "set-cookie": "XSRF-TOKEN=t" } }),
      () => json({ id: 1 }, 201),
    );
    await client(fetch).request("/products", { method: "POST", body: { name: "Akismet" } });
    const post = calls[1];
    expect(post?.method).toBe("POST");
    expect(post?.headers.get("content-type")).toBe("application/json");
    expect(post?.body).toBe(JSON.stringify({ name: "Akismet" }));
  });

  it("sends FormData as multipart, leaving the content type to fetch", async () => {
    const { fetch, calls } = fakeFetch(() => json({ imported: 3 }));
    const form = new FormData();
    form.append("file", new Blob(["slug\nakismet"]), "programs.csv");
    await client(fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/products/import-csv", {
      method: "POST",
      body: form,
    });
    expect(calls[0]?.body).toBe(form);
    expect(calls[0]?.headers.get("content-type")).toBeNull();
  });

  it("turns a PUT with FormData into a POST with _method=PUT, leaving the caller's form untouched", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    const form = new FormData();
    form.append("name", "Akismet");
    await client(fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/products/7", {
      method: "PUT",
      body: form,
    });
    const sent = calls[0];
    expect(sent?.method).toBe("POST");
    expect(sent?.body).toBeInstanceOf(FormData);
    const body = sent?.body as FormData;
    expect(body.get("_method")).toBe("PUT");
    expect(body.get("name")).toBe("Akismet");
    expect(form.has("_method")).toBe(false);
  });

  it("keeps a PUT with a JSON body a PUT", async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    await client(fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/products/7", {
      method: "PUT",
      body: { name: "x" },
    });
    expect(calls[0]?.method).toBe("PUT");
  });

  it("returns undefined for an empty answer and text for a non-JSON one", async () => {
    const { fetch } = fakeFetch(
      () => new Response(null, { status: 204 }),
      () => new Response("slug,name\n", { headers: { "content-type": "text/csv" } }),
    );
    const api = client(fetch);
    expect(await api.request("/a")).toBeUndefined();
    expect(await api.request("/products/csv-template")).toBe("slug,name\n");
  });
});

describe("request wrapper: errors", () => {
  it("turns a non-2xx answer into an ApiError with the body's message", async () => {
    const { fetch } = fakeFetch(() => json({ status: "error", message: "Forbidden for you" }, 403));
    const error = await client(fetch)
      .request("/products/9")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: "Forbidden for you" });
  });

  it("flattens an errors object into 'field message' lines joined by _::_", async () => {
    const { fetch } = fakeFetch(() =>
      json(
        { status: "error", message: "Invalid", errors: { name: ["is required"], slug: ["is invalid"] } },
        422,
      ),
    );
    const error = (await client(fetch)
      .request("/products", { method: "GET" })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(422);
    expect(error.message).toBe("name is required_::_slug is invalid");
    expect(error.errors).toEqual({ name: ["is required"], slug: ["is invalid"] });
  });

  it("gives every message of a field its own line", () => {
    expect(flattenFieldErrors({ url: ["is required", "must be a URL"], email: "is invalid" })).toBe(
      "url is required_::_url must be a URL_::_email is invalid",
    );
  });

  it("treats a 2xx answer whose body says status: error as an error", async () => {
    const { fetch } = fakeFetch(() => json({ status: "error", message: "Product is already active" }, 200));
    const error = (await client(fetch)
      .request("/products/1")
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(200);
    expect(error.message).toBe("Product is already active");
  });

  it("falls back to the status text, then to the generic message", async () => {
    const { fetch } = fakeFetch(
      () => new Response("<html>", { status: 404, statusText: "Not Found" }),
      () => new Response("", { status: 418 }),
    );
    const api = client(fetch);
    await expect(api.request("/x")).rejects.toMatchObject({ status: 404, message: "Not Found" });
    await expect(api.request("/y")).rejects.toMatchObject({ status: 418, message: DEFAULT_ERROR_MESSAGE });
  });

  it("hands every error answer to the error hook (which decides what to report)", async () => {
    const onError = vi.fn();
    const { fetch } = fakeFetch(() => json({ message: "nope" }, 401));
    await expect(client(fetch, { onError }).request("/user")).rejects.toBeInstanceOf(ApiError);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ status: 401 });
  });

  it("warns about a CSRF mismatch on 419", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { fetch } = fakeFetch(() => json({ message: "CSRF token mismatch." }, 419));
    await expect(
      client(fetch, { cookieHeader: "XSRF-TOKEN=old" }).request("/products", { method: "POST", body: {} }),
    ).rejects.toMatchObject({ status: 419 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("419"));
    warn.mockRestore();
  });
});

describe("request wrapper: retries", () => {
  it("retries an idempotent call on 5xx up to 3 times, then fails", async () => {
    const { fetch, calls } = fakeFetch(() => json({ message: "down" }, 503));
    await expect(client(fetch).request("/products")).rejects.toMatchObject({ status: 503, message: "down" });
    expect(calls).toHaveLength(1 + 3);
  });

  it("stops retrying as soon as an answer succeeds", async () => {
    const { fetch, calls } = fakeFetch(
      () => json({}, 502),
      () => json({}, 500),
      () => json({ data: [1] }),
    );
    await expect(client(fetch).request("/products")).resolves.toEqual({ data: [1] });
    expect(calls).toHaveLength(3);
  });

  it("retries network failures of idempotent calls, then reports status 0", async () => {
    const { fetch, calls } = fakeFetch(() => {
      throw new TypeError("fetch failed");
    });
    await expect(client(fetch, { retry: 2 }).request("/products")).rejects.toMatchObject({
      status: 0,
      message: "The server could not be reached.",
    });
    expect(calls).toHaveLength(3);
  });

  it("never retries a POST", async () => {
    const { fetch, calls } = fakeFetch(() => json({ message: "boom" }, 500));
    await expect(
      client(fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/products", { method: "POST", body: {} }),
    ).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });

  it("retries a POST that carries an Idempotency-Key, with the same key, on 503 and network failures", async () => {
    const { fetch, calls } = fakeFetch(
      () => json({ message: "down" }, 503),
      () => {
        throw new TypeError("fetch failed");
      },
      () => json({ id: "r1" }, 201),
    );
    await expect(
      client(fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/reports", {
        method: "POST",
        body: { title: "x" },
        headers: { "Idempotency-Key": "key-1" },
      }),
    ).resolves.toEqual({ id: "r1" });
    expect(calls.map((call) => call.headers.get("idempotency-key"))).toEqual(["key-1", "key-1", "key-1"]);
    expect(calls.map((call) => call.body)).toEqual(Array(3).fill(JSON.stringify({ title: "x" })));
  });

  it("retries a keyed POST on 409 (the key still held by a failed attempt), but no other POST", async () => {
    const keyed = fakeFetch(
      () => json({ message: "in progress" }, 409),
      () => json({ id: "r1" }, 201),
    );
    await expect(
      client(keyed.fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/reports", {
        method: "POST",
        body: {},
        headers: { "Idempotency-Key": "key-2" },
      }),
    ).resolves.toEqual({ id: "r1" });
    expect(keyed.calls).toHaveLength(2);

    const plain = fakeFetch(() => json({ message: "conflict" }, 409));
    await expect(
      client(plain.fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/products/1", {
        method: "PUT",
        body: {},
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(plain.calls).toHaveLength(1);
  });

  it("never retries a PUT sent as POST with _method", async () => {
    const { fetch, calls } = fakeFetch(() => json({ message: "boom" }, 503));
    await expect(
      client(fetch, { cookieHeader: "XSRF-TOKEN=abc" }).request("/products/1", {
        method: "PUT",
        body: new FormData(),
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
  });

  it("does not retry client errors", async () => {
    const { fetch, calls } = fakeFetch(() => json({ message: "missing" }, 404));
    await expect(client(fetch).request("/products/1")).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it("honours a per-call retry count", async () => {
    const { fetch, calls } = fakeFetch(() => json({}, 500));
    await expect(client(fetch).request("/products", { retry: 0 })).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });
});

describe("request wrapper: timeouts", () => {
  /** A fetch that never answers until its signal aborts. */
  function hangingFetch() {
    return fakeFetch(
      (_call, _index) =>
        new Promise<Response>(() => {
          /* never settles by itself */
        }),
    );
  }

  function abortableFetch() {
    const calls: RequestInit[] = [];
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init: RequestInit = {}) =>
        new Promise<Response>((_resolve, reject) => {
          calls.push(init);
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    ) as unknown as typeof globalThis.fetch;
    return { fetch, calls };
  }

  it("aborts after the caller's timeout with 408 and the specification's message, without retrying", async () => {
    vi.useFakeTimers();
    const { fetch, calls } = abortableFetch();
    const pending = client(fetch).request("/products", { timeout: 50 });
    const assertion = expect(pending).rejects.toMatchObject({
      status: 408,
      message: REQUEST_ABORTED_MESSAGE,
    });
    await vi.advanceTimersByTimeAsync(50);
    await assertion;
    expect(calls).toHaveLength(1);
  });

  it("applies the 15000 ms default timeout", async () => {
    vi.useFakeTimers();
    const { fetch } = abortableFetch();
    const pending = client(fetch).request("/products");
    let settled = false;
    pending.catch(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).toBe(false);
    const assertion = expect(pending).rejects.toMatchObject({ status: 408 });
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });

  it("passes a caller's abort through unchanged", async () => {
    const { fetch } = abortableFetch();
    const controller = new AbortController();
    const pending = client(fetch).request("/products", { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe("AbortError");
  });

  it("keeps a hanging answer from resolving before its timeout", async () => {
    vi.useFakeTimers();
    const { fetch } = hangingFetch();
    let settled = false;
    client(fetch)
      .request("/products", { timeout: 1000 })
      .catch(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
  });
});
