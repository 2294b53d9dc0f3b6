import { describe, expect, it } from "vitest";
import { compareVersions, versionsEqual } from "./compare-versions.ts";

describe("compareVersions", () => {
  it.each([
    ["1.0", "1.1"],
    ["1.9", "1.10"],
    ["1.2.3", "1.2.10"],
    ["2.0", "10.0"],
    ["0.9.9", "1"],
    ["1.0.0", "1.0.1"],
    ["4.1", "4.1.1"],
    ["9", "99999999999999999999999"],
  ])("orders numeric segments numerically: %s < %s", (lower, higher) => {
    expect(compareVersions(lower, higher)).toBe(-1);
    expect(compareVersions(higher, lower)).toBe(1);
  });

  it.each([
    ["1.0", "1.0.0"],
    ["1", "1.0.0.0"],
    ["1.01", "1.1"],
    ["v1.2", "1.2"],
    [" 1.2 ", "1.2"],
    ["1.0 final", "1.0"],
    ["1.0-stable", "1.0"],
    ["1.0 free", "1.0"],
    ["5.8 Beta 1", "5.8-beta1"],
    ["1.0.0-RC1", "1.0.0 rc 1"],
    ["1.0 beta", "1.0 beta 0"],
  ])("treats %s and %s as equal", (left, right) => {
    expect(compareVersions(left, right)).toBe(0);
    expect(versionsEqual(right, left)).toBe(true);
  });

  it("orders pre-release tags dev < alpha < beta < rc < final < patch", () => {
    const ordered = [
      "1.0-dev",
      "1.0-alpha",
      "1.0a2",
      "1.0-beta1",
      "1.0b2",
      "1.0-rc1",
      "1.0-RC2",
      "1.0",
      "1.0-p1",
    ];
    for (let index = 1; index < ordered.length; index++) {
      expect(compareVersions(ordered[index - 1]!, ordered[index]!)).toBe(-1);
      expect(compareVersions(ordered[index]!, ordered[index - 1]!)).toBe(1);
    }
  });

  it("puts every pre-release of a version after the previous release", () => {
    expect(compareVersions("5.7.2", "5.8 beta 1")).toBe(-1);
    expect(compareVersions("5.8 beta 1", "5.8")).toBe(-1);
    expect(compareVersions("1.0.0-rc1", "1.0.0")).toBe(-1);
    expect(compareVersions("1.0.0-rc1", "0.9.9")).toBe(1);
  });

  it("reads a leading separator as a 0 segment (.47.1 = 0.47.1)", () => {
    expect(compareVersions(".47.1", "0.47.1")).toBe(0);
    expect(compareVersions(".47.1", "0.47")).toBe(1);
    expect(compareVersions(".47.1", "1.0")).toBe(-1);
  });

  it("reads dates written with hyphens as numeric segments", () => {
    expect(compareVersions("17-07-2019", "17.7.2019")).toBe(0);
    expect(compareVersions("17-07-2019", "18-01-2018")).toBe(-1);
  });

  it("ignores text in parentheses", () => {
    expect(compareVersions("44.0 (17-08-2023)", "44.0")).toBe(0);
    expect(compareVersions("44.0 (17-08-2023)", "44.0.1")).toBe(-1);
    expect(compareVersions("44.0 (17-08-2023)", "43.9")).toBe(1);
  });

  it("sorts the * wildcard after every version", () => {
    expect(compareVersions("*", "999.999")).toBe(1);
    expect(compareVersions("1.0", "*")).toBe(-1);
    expect(compareVersions("*", "*")).toBe(0);
  });

  it("never throws on strings without digits", () => {
    expect(compareVersions("", "0")).toBe(0);
    expect(compareVersions("trunk", "0.0.1")).toBe(-1);
    expect(compareVersions("((", ")")).toBe(0);
    expect(compareVersions("1.0)", "1.0")).toBe(0);
  });

  it("sorts a list of odd real version strings", () => {
    const versions = [
      "1.0.0",
      "*",
      ".47.1",
      "5.8 beta 1",
      "17-07-2019",
      "44.0 (17-08-2023)",
      "1.0.0-rc1",
      "5.8",
    ];
    expect([...versions].sort(compareVersions)).toEqual([
      ".47.1",
      "1.0.0-rc1",
      "1.0.0",
      "5.8 beta 1",
      "5.8",
      "17-07-2019",
      "44.0 (17-08-2023)",
      "*",
    ]);
  });
});
