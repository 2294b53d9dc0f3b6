import { describe, expect, it } from "vitest";
import { reportedVersionOverlaps } from "./range-overlap.ts";

const range = (bounds: Record<string, unknown>) => ({ prefix: "<=", version: "*", ...bounds });

describe("reportedVersionOverlaps", () => {
  it("compares a reported upper bound with a record's introduced / fixed bounds", () => {
    expect(reportedVersionOverlaps({ prefix: "<=", version: "5.8.1" }, range({ fixed: "5.9" }))).toBe(true);
    expect(reportedVersionOverlaps({ prefix: "<=", version: "5.8.1" }, range({ introduced: "5.8.2" }))).toBe(
      false,
    );
    expect(reportedVersionOverlaps({ prefix: "<=", version: "5.8.1" }, range({ introduced: "5.8.1" }))).toBe(
      true,
    );
    expect(reportedVersionOverlaps({ prefix: "<", version: "5.8.1" }, range({ introduced: "5.8.1" }))).toBe(
      false,
    );
  });

  it("reads an exact version against fixed (exclusive) and last_affected (inclusive)", () => {
    expect(reportedVersionOverlaps({ prefix: "", version: "2.0" }, range({ fixed: "2.0" }))).toBe(false);
    expect(reportedVersionOverlaps({ prefix: "", version: "2.0" }, range({ last_affected: "2.0" }))).toBe(
      true,
    );
    expect(reportedVersionOverlaps({ prefix: "", version: "2.0.1" }, range({ last_affected: "2.0" }))).toBe(
      false,
    );
  });

  it("falls back on the display form without explicit bounds", () => {
    expect(reportedVersionOverlaps({ prefix: "", version: "3.0" }, { prefix: "<", version: "3.0" })).toBe(
      false,
    );
    expect(reportedVersionOverlaps({ prefix: "", version: "3.0" }, { prefix: "<=", version: "3.0" })).toBe(
      true,
    );
    expect(reportedVersionOverlaps({ prefix: "", version: "1.4" }, { prefix: "", version: "1.4.0" })).toBe(
      true,
    );
    expect(reportedVersionOverlaps({ prefix: "<=", version: "*" }, { prefix: "", version: "9.9" })).toBe(
      true,
    );
  });
});
