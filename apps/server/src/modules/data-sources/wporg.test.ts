import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  directoryInfoUrl,
  fetchDirectoryInfo,
  parseDirectoryInfo,
  parseWporgDate,
  WPORG_DEFAULT_API_URL,
  WporgError,
} from "./wporg.ts";

// Answers in the API's shapes (fields as the directory's code writes them; the closed answer is the
// one wp-cli's own tests stand in with for the real closed plugin `no-longer-in-directory`).
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const PLUGIN_INFO = fixture("wporg-plugin-info.json");
const PLUGIN_CLOSED = fixture("wporg-plugin-closed.json");
const PLUGIN_NOT_FOUND = fixture("wporg-plugin-not-found.json");
const THEME_INFO = fixture("wporg-theme-info.json");
const THEME_NOT_FOUND = fixture("wporg-theme-not-found.json");

type Answer = (response: ServerResponse) => void;
const json =
  (status: number, body: string): Answer =>
  (response) =>
    response.writeHead(status, { "content-type": "application/json; charset=UTF-8" }).end(body);

/** The stand-in for api.wordpress.org: the slug names the case. */
const ANSWERS: Record<string, Record<string, Answer>> = {
  "/plugins/info/1.2/": {
    "wordpress-importer": json(200, PLUGIN_INFO),
    "no-longer-in-directory": json(404, PLUGIN_CLOSED),
    // Some closed plugins come with a 200 (github.com/roots/wp-packages pull 62).
    "closed-with-200": json(200, PLUGIN_CLOSED),
    "does-not-exist": json(404, PLUGIN_NOT_FOUND),
    "rate-limited": (response) => response.writeHead(429, { "retry-after": "60" }).end("Too Many Requests"),
    "server-error": (response) =>
      response.writeHead(502, { "content-type": "text/html" }).end("<html><body>Bad Gateway</body></html>"),
    "html-page": (response) =>
      response.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html>"),
    hang: () => {},
  },
  "/themes/info/1.2/": {
    twentytwentyfive: json(200, THEME_INFO),
    "no-such-theme": json(404, THEME_NOT_FOUND),
  },
};

let baseUrl: string;
const asked: URL[] = [];
const server = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  asked.push(url);
  const answer = ANSWERS[url.pathname]?.[url.searchParams.get("request[slug]") ?? ""];
  if (answer) answer(response);
  else response.writeHead(404, { "content-type": "text/html" }).end("<html><body>Not Found</body></html>");
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("directoryInfoUrl", () => {
  it("asks the 1.2 API for a plugin's information, with only the fields the sync needs", () => {
    const url = directoryInfoUrl(WPORG_DEFAULT_API_URL, "plugin", "wordpress-importer");

    expect(WPORG_DEFAULT_API_URL).toBe("https://api.wordpress.org");
    expect(`${url.origin}${url.pathname}`).toBe("https://api.wordpress.org/plugins/info/1.2/");
    expect(url.searchParams.get("action")).toBe("plugin_information");
    expect(url.searchParams.get("request[slug]")).toBe("wordpress-importer");
    expect(url.searchParams.get("request[fields][active_installs]")).toBe("1");
    expect(url.searchParams.get("request[fields][sections]")).toBe("0");
  });

  it("asks for a theme's active installs, which themes only give when asked", () => {
    const url = directoryInfoUrl(`${WPORG_DEFAULT_API_URL}/`, "theme", "twentytwentyfive");

    expect(`${url.origin}${url.pathname}`).toBe("https://api.wordpress.org/themes/info/1.2/");
    expect(url.searchParams.get("action")).toBe("theme_information");
    expect(url.searchParams.get("request[fields][active_installs]")).toBe("1");
  });

  it("keeps a base URL's path (a mirror under a prefix)", () => {
    const url = directoryInfoUrl("https://mirror.example/wporg", "plugin", "akismet");

    expect(url.pathname).toBe("/wporg/plugins/info/1.2/");
  });

  it.each(["", "../etc", "a/b", "akismet?x=1", " akismet"])("refuses the slug %j", (slug) => {
    expect(() => directoryInfoUrl(WPORG_DEFAULT_API_URL, "plugin", slug)).toThrow(RangeError);
  });
});

describe("parseWporgDate", () => {
  it.each([
    ["2024-05-30 3:12pm GMT", "2024-05-30T15:12:00.000Z"],
    ["2025-09-26 9:07pm GMT", "2025-09-26T21:07:00.000Z"],
    ["2024-05-30 12:05am GMT", "2024-05-30T00:05:00.000Z"],
    ["2024-05-30 12:05pm GMT", "2024-05-30T12:05:00.000Z"],
    ["2025-08-05 15:51:42", "2025-08-05T15:51:42.000Z"],
    ["2025-08-05", "2025-08-05T00:00:00.000Z"],
  ])("reads %j as UTC", (text, iso) => {
    expect(parseWporgDate(text)?.toISOString()).toBe(iso);
  });

  it.each(["2024-02-30 1:00pm GMT", "2024-05-30 13:00pm GMT", "2024-05-30 25:00:00", "yesterday", ""])(
    "gives null for %j",
    (text) => {
      expect(parseWporgDate(text)).toBeNull();
    },
  );
});

describe("parseDirectoryInfo", () => {
  it("reads an open plugin's version, active installs and last update", () => {
    expect(parseDirectoryInfo("plugin", 200, JSON.parse(PLUGIN_INFO))).toEqual({
      state: "open",
      version: "0.9.4",
      activeInstalls: 2_000_000,
      lastUpdated: new Date("2025-09-26T21:07:00Z"),
    });
  });

  it("reads an open theme, preferring last_updated_time to the day alone", () => {
    const theme = JSON.parse(THEME_INFO);

    expect(parseDirectoryInfo("theme", 200, theme)).toEqual({
      state: "open",
      version: "1.3",
      activeInstalls: 1_000_000,
      lastUpdated: new Date("2025-08-05T15:51:42Z"),
    });
    const { last_updated_time: _omitted, ...withoutTime } = theme;
    expect(parseDirectoryInfo("theme", 200, withoutTime)).toMatchObject({
      lastUpdated: new Date("2025-08-05T00:00:00Z"),
    });
    const { last_updated: _day, ...withoutDates } = withoutTime;
    expect(parseDirectoryInfo("theme", 200, withoutDates)).toMatchObject({
      state: "open",
      lastUpdated: null,
    });
  });

  it("gives a null last update when the answer's date does not read as one", () => {
    const plugin = { ...JSON.parse(PLUGIN_INFO), last_updated: "some time ago" };

    expect(parseDirectoryInfo("plugin", 200, plugin)).toMatchObject({ state: "open", lastUpdated: null });
  });

  it("reads a closed plugin's date, reason and permanence, whether the status is 404 or 200", () => {
    const closed = {
      state: "closed",
      closedDate: "2018-10-02",
      reason: "guideline-violation",
      reasonText: "Guideline Violation",
      permanent: true,
    };

    expect(parseDirectoryInfo("plugin", 404, JSON.parse(PLUGIN_CLOSED))).toEqual(closed);
    expect(parseDirectoryInfo("plugin", 200, JSON.parse(PLUGIN_CLOSED))).toEqual(closed);
  });

  it("reads a recent closure whose reason is not public yet", () => {
    const answer = {
      error: "closed",
      slug: "better-delete-revision",
      description:
        "This plugin has been closed as of August 26, 2022 and is not available for download. This closure is temporary, pending a full review.",
      closed: true,
      closed_date: "2022-08-26",
      reason: false,
      reason_text: "",
    };

    expect(parseDirectoryInfo("plugin", 404, answer)).toEqual({
      state: "closed",
      closedDate: "2022-08-26",
      reason: null,
      reasonText: null,
      permanent: false,
    });
  });

  it("reads an old closure without a date", () => {
    expect(parseDirectoryInfo("plugin", 404, { error: "closed", closed_date: false })).toEqual({
      state: "closed",
      closedDate: null,
      reason: null,
      reasonText: null,
      permanent: null,
    });
  });

  it.each([
    ["plugin", 404, JSON.parse(PLUGIN_NOT_FOUND)],
    ["plugin", 404, { error: "not_found" }],
    // The older API answered an unknown slug with a 200.
    ["plugin", 200, { error: "Plugin not found." }],
    ["theme", 404, JSON.parse(THEME_NOT_FOUND)],
  ] as const)("reads %s HTTP %i %j as not found", (kind, status, body) => {
    expect(parseDirectoryInfo(kind, status, body)).toEqual({ state: "not_found" });
  });

  it.each([
    [
      "an info without its version",
      200,
      { ...JSON.parse(PLUGIN_INFO), version: undefined },
      /version: missing/,
    ],
    [
      "an info without active installs",
      200,
      { ...JSON.parse(PLUGIN_INFO), active_installs: "many" },
      /active_installs/,
    ],
    [
      "an API error that is not about the slug",
      200,
      { error: "Slug not provided" },
      /HTTP 200: Slug not provided/,
    ],
    ["a server error with a JSON body", 503, { error: "Service unavailable" }, /HTTP 503/],
    ["a server error without an error field", 500, { message: "oops" }, /HTTP 500/],
    ["a 404 without the API's error (not the API)", 404, {}, /HTTP 404/],
    ["a JSON array", 200, [], /not an object/],
  ])("refuses %s", (_case, status, body, message) => {
    expect(() => parseDirectoryInfo("plugin", status, body)).toThrow(WporgError);
    expect(() => parseDirectoryInfo("plugin", status, body)).toThrow(message);
  });
});

describe("fetchDirectoryInfo", () => {
  it("asks the directory for an open plugin", async () => {
    const info = await fetchDirectoryInfo(baseUrl, "plugin", "wordpress-importer");

    expect(info).toEqual({
      state: "open",
      version: "0.9.4",
      activeInstalls: 2_000_000,
      lastUpdated: new Date("2025-09-26T21:07:00Z"),
    });
    const request = asked.at(-1);
    expect(request?.pathname).toBe("/plugins/info/1.2/");
    expect(request?.searchParams.get("action")).toBe("plugin_information");
    expect(request?.searchParams.get("request[slug]")).toBe("wordpress-importer");
  });

  it("tells a closed plugin and an unknown one apart, both answered with a 404", async () => {
    expect(await fetchDirectoryInfo(baseUrl, "plugin", "no-longer-in-directory")).toMatchObject({
      state: "closed",
      closedDate: "2018-10-02",
      reason: "guideline-violation",
    });
    expect(await fetchDirectoryInfo(baseUrl, "plugin", "closed-with-200")).toMatchObject({ state: "closed" });
    expect(await fetchDirectoryInfo(baseUrl, "plugin", "does-not-exist")).toEqual({ state: "not_found" });
  });

  it("asks the theme directory for themes", async () => {
    expect(await fetchDirectoryInfo(baseUrl, "theme", "twentytwentyfive")).toMatchObject({
      state: "open",
      version: "1.3",
      activeInstalls: 1_000_000,
    });
    expect(asked.at(-1)?.searchParams.get("action")).toBe("theme_information");
    expect(await fetchDirectoryInfo(baseUrl, "theme", "no-such-theme")).toEqual({ state: "not_found" });
  });

  it("fails on a rate limit, a gateway error or an HTML page, with the status", async () => {
    await expect(fetchDirectoryInfo(baseUrl, "plugin", "rate-limited")).rejects.toMatchObject({
      name: "WporgError",
      status: 429,
    });
    await expect(fetchDirectoryInfo(baseUrl, "plugin", "server-error")).rejects.toMatchObject({
      status: 502,
    });
    await expect(fetchDirectoryInfo(baseUrl, "plugin", "html-page")).rejects.toThrow(/not JSON/);
  });

  it("does not read a wrong base URL's 404 page as every plugin being gone", async () => {
    await expect(
      fetchDirectoryInfo(`${baseUrl}/wrong-prefix`, "plugin", "wordpress-importer"),
    ).rejects.toMatchObject({
      name: "WporgError",
      status: 404,
    });
  });

  it("gives up after the timeout", async () => {
    await expect(fetchDirectoryInfo(baseUrl, "plugin", "hang", { timeoutMs: 200 })).rejects.toThrow(
      /did not answer within 200 ms/,
    );
  });

  it("stops when the caller aborts, with the caller's reason", async () => {
    const controller = new AbortController();
    const pending = fetchDirectoryInfo(baseUrl, "plugin", "hang", { signal: controller.signal });
    const reason = new Error("the sync is stopping");

    controller.abort(reason);

    await expect(pending).rejects.toBe(reason);
  });

  it("fails clearly when the directory cannot be reached", async () => {
    const refused = async () => {
      throw new TypeError("fetch failed");
    };

    await expect(fetchDirectoryInfo(baseUrl, "plugin", "akismet", { fetch: refused })).rejects.toThrow(
      /could not be reached \(plugin akismet\): fetch failed/,
    );
  });
});
