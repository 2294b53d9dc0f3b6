import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api/api-error.ts";
import { isReportableError, reportError } from "./error-reporting.ts";

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
});
