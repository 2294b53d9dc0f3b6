import { data, UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api/api-error.ts";
import { requireLeaderboardType, requireProductPath, requireTimeframe } from "./database-params.ts";
import {
  apiFailureOf,
  DEFAULT_ERROR_MESSAGE,
  describeError,
  messageOf,
  NOT_FOUND_MESSAGE,
  throwNotFound,
} from "./errors.ts";
import { requireNumericId } from "./route-params.ts";

/** What a loader threw, as React Router describes it. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("messageOf", () => {
  it("shows a failed call's own message, and the default one for anything not an Error", () => {
    expect(messageOf(new ApiError(409, "Already confirmed"))).toBe("Already confirmed");
    expect(messageOf(new Error("Network down"))).toBe("Network down");
    expect(messageOf(new Error(""))).toBe("");
    expect(messageOf("nope")).toBe(DEFAULT_ERROR_MESSAGE);
    expect(messageOf(undefined)).toBe(DEFAULT_ERROR_MESSAGE);
  });
});

describe("describeError", () => {
  it("shows a 404 as 'Page not found'", () => {
    expect(describeError(new ErrorResponseImpl(404, "Not Found", null))).toEqual({
      status: 404,
      message: "Page not found",
    });
  });

  it("uses the message a route gave", () => {
    expect(describeError(new ErrorResponseImpl(403, "Forbidden", { message: "Not your program" }))).toEqual({
      status: 403,
      message: "Not your program",
    });
    expect(describeError(new ErrorResponseImpl(410, "", "Gone for good"))).toEqual({
      status: 410,
      message: "Gone for good",
    });
  });

  it("falls back to the status text, then to the default message (spec §8)", () => {
    expect(describeError(new ErrorResponseImpl(418, "I'm a teapot", null)).message).toBe("I'm a teapot");
    expect(describeError(new ErrorResponseImpl(418, "", null)).message).toBe(DEFAULT_ERROR_MESSAGE);
    expect(DEFAULT_ERROR_MESSAGE).toBe("An error occurred.");
  });

  it("shows a crash as 500 with the generic message", () => {
    expect(describeError(new Error("secret detail"))).toEqual({
      status: 500,
      message: DEFAULT_ERROR_MESSAGE,
    });
    expect(describeError(undefined)).toEqual({ status: 500, message: DEFAULT_ERROR_MESSAGE });
  });

  it("shows an API error with its own status", () => {
    expect(describeError(new ApiError(404, "Product not found"))).toEqual({
      status: 404,
      message: "Product not found",
    });
  });
});

describe("apiFailureOf", () => {
  it("keeps the API's 4xx as the page's status (issue 15: a NUL byte is the visitor's input, not a crash)", () => {
    const refused = new ApiError(422, "The request contains characters that cannot be stored (such as NUL).");
    expect(apiFailureOf(refused)).toMatchObject({ data: refused.message, init: { status: 422 } });
    expect(apiFailureOf(refused, "Error fetching product")).toMatchObject({
      data: "Error fetching product",
      init: { status: 422 },
    });
    expect(apiFailureOf(new ApiError(503, "Server error."))).toMatchObject({ init: { status: 503 } });
  });

  it("answers 500 for a timeout, no answer at all, or a crash", () => {
    expect(apiFailureOf(new ApiError(408, "aborted"))).toMatchObject({ init: { status: 500 } });
    expect(apiFailureOf(new ApiError(0, ""))).toMatchObject({
      data: DEFAULT_ERROR_MESSAGE,
      init: { status: 500 },
    });
    expect(apiFailureOf(new Error("boom"))).toMatchObject({
      data: DEFAULT_ERROR_MESSAGE,
      init: { status: 500 },
    });
  });
});

describe("404 helpers", () => {
  it("throwNotFound throws a 404 answer with 'Page not found'", () => {
    const error = thrown(throwNotFound);
    expect(error).toEqual(data(NOT_FOUND_MESSAGE, { status: 404, statusText: "Not Found" }));
  });

  it("accepts digits only as a program id", () => {
    expect(requireNumericId("42")).toBe("42");
    for (const id of ["abc", "4a", "-1", "1.5", "", " 1", undefined]) {
      expect(thrown(() => requireNumericId(id))).toMatchObject({ init: { status: 404 } });
    }
  });

  it("accepts the known database path segments and rejects others", () => {
    expect(requireProductPath({ platform: "wordpress", kind: "theme" })).toEqual({
      platform: "wordpress",
      kind: "theme",
    });
    expect(thrown(() => requireProductPath({ platform: "joomla", kind: "plugin" }))).toMatchObject({
      init: { status: 404 },
    });
    expect(thrown(() => requireProductPath({ platform: "wordpress", kind: "widget" }))).toMatchObject({
      init: { status: 404 },
    });
    expect(requireLeaderboardType(undefined)).toBe("monthly");
    expect(requireLeaderboardType("all-time")).toBe("all-time");
    expect(thrown(() => requireLeaderboardType("weekly"))).toMatchObject({ init: { status: 404 } });
    expect(requireTimeframe(undefined)).toBe("all-time");
    expect(requireTimeframe("2025")).toBe("2025");
    expect(requireTimeframe("last-30-days")).toBe("last-30-days");
    expect(thrown(() => requireTimeframe("yesterday"))).toMatchObject({ init: { status: 404 } });
  });
});
