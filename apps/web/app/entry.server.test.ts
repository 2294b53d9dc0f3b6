import type { AppLoadContext, EntryContext } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import handleRequest, { handleError } from "./entry.server.tsx";
import { isCrawler } from "./lib/crawler.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const HEADLESS_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36";

function request(userAgent: string, init: RequestInit = {}) {
  return new Request("http://localhost/nope", { ...init, headers: { "user-agent": userAgent } });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("entry.server: crawlers do not get the error page (spec §8)", () => {
  it("recognises crawlers by their user agent", () => {
    expect(isCrawler(GOOGLEBOT)).toBe(true);
    expect(isCrawler("curl/8.5.0")).toBe(true);
    expect(isCrawler(FIREFOX)).toBe(false);
    expect(isCrawler(null)).toBe(false);
  });

  it("lets headless browsers (end-to-end tests) see the real pages", () => {
    expect(isCrawler(HEADLESS_CHROME)).toBe(false);
  });

  it.each([404, 500])("answers a crawler's %i with plain text and the same status", async (status) => {
    const headers = new Headers({ "Cache-Control": "no-store" });
    const response = (await handleRequest(
      request(GOOGLEBOT),
      status,
      headers,
      {} as EntryContext,
      {} as AppLoadContext,
    )) as Response;
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.text();
    expect(body).toBe(status === 404 ? "404 Not Found\n" : "500 Internal Server Error\n");
    expect(body).not.toContain("<html");
  });
});

describe("entry.server: handleError", () => {
  it("reports a loader crash", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const error = new Error("db down");
    handleError(error, { request: request(FIREFOX), params: {}, context: {} as AppLoadContext } as never);
    expect(consoleError).toHaveBeenCalledWith(error);
  });

  it("hands a crash to the server's reporter when the load context carries one", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const reportError = vi.fn();
    const error = new Error("db down");
    const context = { reportError } as unknown as AppLoadContext;
    handleError(error, { request: request(FIREFOX), params: {}, context } as never);
    expect(reportError).toHaveBeenCalledWith(error);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("stays quiet when the visitor went away (aborted request)", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const controller = new AbortController();
    controller.abort();
    handleError(new Error("aborted"), {
      request: request(FIREFOX, { signal: controller.signal }),
      params: {},
      context: {} as AppLoadContext,
    } as never);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
