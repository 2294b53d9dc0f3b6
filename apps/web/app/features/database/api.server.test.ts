import type { PageReader } from "@pressguard/domain";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "../../lib/request-context.server.ts";
import { databaseApi } from "./api.server.ts";
import { parseSearchParams } from "./search-params.ts";

const input = {
  request: new Request("http://site.test/database", { headers: { cookie: "session=secret" } }),
  context: { publicConfig: developmentPublicConfig("http://site.test"), apiOrigin: "http://api.test" },
};

const visit = () => new Request("http://site.test/database", { headers: { cookie: "session=secret" } });

// Each test is a page request of its own (the loaders of one request share its API answers).
beforeEach(() => {
  input.request = visit();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function thrown(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

describe("databaseApi", () => {
  it("asks the API once for what the loaders of one page request both need", async () => {
    const fetch = vi.fn(async () => Response.json({ id: 7, slug: "akismet" }));
    vi.stubGlobal("fetch", fetch);
    const [layout, page] = await Promise.all([
      databaseApi.getProduct(input, "wordpress", "plugin", "akismet"),
      databaseApi.getProduct(input, "wordpress", "plugin", "akismet"),
    ]);
    expect(layout).toEqual(page);
    expect(fetch).toHaveBeenCalledTimes(1);
    await databaseApi.getProduct({ ...input, request: visit() }, "wordpress", "plugin", "akismet");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("sends the search's valid filters to the API without the visitor's cookies", async () => {
    const fetch = vi.fn(async () => Response.json({ data: [], pagination: {} }));
    vi.stubGlobal("fetch", fetch);
    const params = parseSearchParams(
      new URLSearchParams("q=contact+form&kind=plugin&patched=false&year=12&page=2"),
    );
    await databaseApi.searchVulnerabilities(input, params);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(
      "http://api.test/api/v1/vulnerabilities?page=2&q=contact+form&kind=plugin&patched=false&per_page=20",
    );
    expect(new Headers(init.headers).get("cookie")).toBeNull();
  });

  it("sends the known-exploited filter and the EPSS order as the API names them (issue 34)", async () => {
    const fetch = vi.fn(async () => Response.json({ data: [], pagination: {} }));
    vi.stubGlobal("fetch", fetch);
    const params = parseSearchParams(new URLSearchParams("known_exploited=true&sort=epss"));
    await databaseApi.searchVulnerabilities(input, params);
    const [url] = fetch.mock.calls[0] as unknown as [string];
    expect(url).toBe(
      "http://api.test/api/v1/vulnerabilities?page=1&known_exploited=true&sort=epss&per_page=20",
    );
  });

  it("turns the API's 404 into the page's 404", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ status: "error", message: "Vulnerability not found." }, { status: 404 }),
    );
    const error = await thrown(databaseApi.getVulnerability(input, "nope"));
    // A loader's thrown `data(...)`: React Router renders it as the 404 page.
    expect(error).toMatchObject({ data: "Page not found", init: { status: 404 } });
  });

  it("answers the API's refusal of the visitor's input with its 4xx, not a 500 (issue 15: ?q=%00)", async () => {
    for (const status of [400, 422]) {
      vi.stubGlobal("fetch", async () =>
        Response.json({ status: "error", message: "The request contains a NUL character." }, { status }),
      );
      input.request = visit();
      const params = parseSearchParams(new URLSearchParams("q=%00"));
      expect(await thrown(databaseApi.searchVulnerabilities(input, params))).toMatchObject({
        data: "Error fetching vulnerabilities",
        init: { status },
      });
      expect(await thrown(databaseApi.getProduct(input, "wordpress", "plugin", "\u0000"))).toMatchObject({
        data: "Error fetching product",
        init: { status },
      });
    }
  });

  it("shows the specification's store failure message when the API fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal("fetch", async () =>
      Response.json({ status: "error", message: "Server error." }, { status: 503 }),
    );
    expect(await thrown(databaseApi.getVulnerability(input, "x"))).toMatchObject({
      data: "Error fetching vulnerabilities",
      init: { status: 503 },
    });
    expect(await thrown(databaseApi.getProductContributors(input, 1))).toMatchObject({
      data: "Error fetching contributors",
    });
    expect(await thrown(databaseApi.getProduct(input, "wordpress", "plugin", "x"))).toMatchObject({
      data: "Error fetching product",
    });
  });
});

describe("databaseApi in the server that renders the page (decision 038)", () => {
  const failure = (status: number, message: string) => ({ kind: "page-read-failure", status, message });
  const withReader = (pageRead: PageReader) => ({ ...input, context: { ...input.context, pageRead } });

  it("reads in-process, never over HTTP: the route, its params and the query the API would get", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const read = vi.fn(async () => ({ data: [], pagination: {} }));
    const params = parseSearchParams(new URLSearchParams("q=contact+form&kind=plugin&patched=false"));
    await databaseApi.searchVulnerabilities(withReader(read as unknown as PageReader), params);
    await databaseApi.getVulnerability(withReader(read as unknown as PageReader), "a b");
    expect(read.mock.calls).toEqual([
      [
        "/v1/vulnerabilities",
        {},
        {
          page: 1,
          q: "contact form",
          kind: "plugin",
          patched: "false",
          known_exploited: undefined,
          per_page: 20,
        },
        undefined,
      ],
      ["/v1/vulnerabilities/:id", { id: "a b" }, undefined, undefined],
    ]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("reads a record once for a page view: a layout and its page share the load context, not a Request", async () => {
    const read = vi.fn(async () => ({ id: 1 }));
    const { context } = withReader(read as unknown as PageReader);
    const layout = { request: new Request("http://site.test/database/wordpress/plugin/x"), context };
    const tab = { request: new Request("http://site.test/database/wordpress/plugin/x"), context };
    await databaseApi.getProduct(layout, "wordpress", "plugin", "x");
    await databaseApi.getProduct(tab, "wordpress", "plugin", "x");
    expect(read).toHaveBeenCalledTimes(1);
    // Another page view asks again.
    await databaseApi.getProduct(withReader(read as unknown as PageReader), "wordpress", "plugin", "x");
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("turns a read's 404 into the page's 404, and another failure into the store failure message", async () => {
    const notFound = withReader(async () => Promise.reject(failure(404, "Vulnerability not found.")));
    expect(await thrown(databaseApi.getVulnerability(notFound, "nope"))).toMatchObject({
      data: "Page not found",
      init: { status: 404 },
    });
    input.request = visit();
    const unavailable = withReader(async () => Promise.reject(failure(503, "Service unavailable.")));
    expect(await thrown(databaseApi.getProduct(unavailable, "wordpress", "plugin", "x"))).toMatchObject({
      data: "Error fetching product",
      init: { status: 503 },
    });
  });

  it("gives up on a read that does not answer in 5 s, as on an API timeout", async () => {
    vi.useFakeTimers();
    try {
      const stuck = withReader(() => new Promise(() => {}));
      const outcome = thrown(databaseApi.getVulnerability(stuck, "slow"));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await outcome).toMatchObject({ data: "Error fetching vulnerabilities", init: { status: 500 } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("parseSearchParams", () => {
  it("keeps valid values and drops what the API would refuse", () => {
    expect(
      parseSearchParams(
        new URLSearchParams(
          "q=%20xss%20&kind=module&type=2&severity=severe&patched=yes&year=2024&sort=relevance&page=0",
        ),
      ),
    ).toEqual({ q: "xss", type: 2, year: 2024, sort: "relevance", page: 1 });
  });

  it("reads the known-exploited checkbox and the EPSS order, and drops other values (issue 34)", () => {
    expect(parseSearchParams(new URLSearchParams("known_exploited=true&sort=epss"))).toEqual({
      known_exploited: true,
      sort: "epss",
      page: 1,
    });
    expect(parseSearchParams(new URLSearchParams("known_exploited=on"))).toEqual({
      known_exploited: true,
      page: 1,
    });
    expect(parseSearchParams(new URLSearchParams("known_exploited=false&sort=risk"))).toEqual({ page: 1 });
  });
});
