import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api/api-error.ts";
import { buildSentryEnvelope, isReportableError, parseSentryDsn, reportError } from "./error-reporting.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("isReportableError", () => {
  it.each([300, 301, 401, 404, 408, 419, 422, 499])("skips answers with status %i", (status) => {
    expect(isReportableError(new ApiError(status, "x"))).toBe(false);
    expect(isReportableError(new ErrorResponseImpl(status, "", null))).toBe(false);
  });

  it.each([200, 500, 503, 0])("reports answers with status %i", (status) => {
    expect(isReportableError(new ApiError(status, "x"))).toBe(true);
  });

  it("reports errors without a status", () => {
    expect(isReportableError(new Error("crash"))).toBe(true);
    expect(isReportableError("text")).toBe(true);
  });
});

describe("reportError", () => {
  it("writes to the console when no DSN is configured", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const error = new Error("crash");
    expect(reportError(error, {})).toBe(true);
    expect(consoleError).toHaveBeenCalledWith(error);
  });

  it("does not report a client error", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(reportError(new ApiError(404, "missing"), {})).toBe(false);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("sends one envelope to the DSN's project when a DSN is configured", async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 200 }));
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    reportError(new ApiError(500, "Internal"), {
      dsn: "https://abc123@o1.ingest.sentry.test/42",
      release: "build-7",
      fetch,
    });
    expect(consoleError).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://o1.ingest.sentry.test/api/42/envelope/?sentry_key=abc123&sentry_version=7");
    expect(init.method).toBe("POST");
    const [, , event] = String(init.body).trim().split("\n");
    expect(JSON.parse(event ?? "{}")).toMatchObject({
      level: "error",
      release: "build-7",
      exception: { values: [{ type: "ApiError", value: "Internal" }] },
      tags: { status: "500" },
    });
  });

  it("logs, and never throws, when the report cannot be sent", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const fetch = vi.fn(async () => {
      throw new TypeError("offline");
    });
    expect(() => reportError(new Error("crash"), { dsn: "https://k@sentry.test/1", fetch })).not.toThrow();
    await vi.waitFor(() => expect(consoleError).toHaveBeenCalled());
  });
});

describe("parseSentryDsn", () => {
  it("keeps a path prefix of self-hosted installations", () => {
    expect(parseSentryDsn("https://key@sentry.example.org/prefix/7")?.envelopeUrl).toBe(
      "https://sentry.example.org/prefix/api/7/envelope/?sentry_key=key&sentry_version=7",
    );
  });

  it("rejects what is not a DSN", () => {
    expect(parseSentryDsn(undefined)).toBeNull();
    expect(parseSentryDsn("not a url")).toBeNull();
    expect(parseSentryDsn("https://sentry.test/1")).toBeNull();
  });
});

describe("buildSentryEnvelope", () => {
  it("writes the header, item and event lines", () => {
    const text = buildSentryEnvelope(new Error("crash"), {
      dsn: "https://k@sentry.test/1",
      eventId: "e".repeat(32),
      timestamp: new Date("2026-01-02T03:04:05Z"),
    });
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({
      event_id: "e".repeat(32),
      sent_at: "2026-01-02T03:04:05.000Z",
      dsn: "https://k@sentry.test/1",
    });
    expect(lines[1]).toEqual({ type: "event" });
    expect(lines[2]).toMatchObject({
      event_id: "e".repeat(32),
      timestamp: 1767323045,
      platform: "javascript",
    });
  });
});
