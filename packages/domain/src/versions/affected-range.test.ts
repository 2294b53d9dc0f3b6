import { describe, expect, it } from "vitest";
import { AffectedRange, describeAffectedRange, isVersionAffected } from "./affected-range.ts";

describe("isVersionAffected", () => {
  it("treats a <= range as affected up to and including last_affected", () => {
    const range = { last_affected: "4.1", prefix: "<=", version: "4.1" } as const;
    expect(isVersionAffected("1.0", range)).toBe(true);
    expect(isVersionAffected("4.1", range)).toBe(true);
    expect(isVersionAffected("4.1.0", range)).toBe(true);
    expect(isVersionAffected("4.1.1", range)).toBe(false);
    expect(isVersionAffected("4.1-beta1", range)).toBe(true);
  });

  it("treats a < range as affected below fixed", () => {
    const range = { fixed: "4.1.1", prefix: "<", version: "4.1.1" } as const;
    expect(isVersionAffected("4.1", range)).toBe(true);
    expect(isVersionAffected("4.1.1", range)).toBe(false);
    expect(isVersionAffected("4.2", range)).toBe(false);
    expect(isVersionAffected("4.1.1-rc1", range)).toBe(true);
  });

  it("treats a single-version range as exactly that version", () => {
    const range = {
      introduced: "2.0",
      introduced_inclusive: true,
      last_affected: "2.0",
      prefix: "",
      version: "2.0",
    } as const;
    expect(isVersionAffected("2.0", range)).toBe(true);
    expect(isVersionAffected("2.0.0", range)).toBe(true);
    expect(isVersionAffected("1.9", range)).toBe(false);
    expect(isVersionAffected("2.0.1", range)).toBe(false);
  });

  it("applies an inclusive or exclusive lower bound", () => {
    const inclusive = {
      introduced: "6.0",
      introduced_inclusive: true,
      last_affected: "6.0.1",
      prefix: "<=",
      version: "6.0.1",
    } as const;
    expect(isVersionAffected("5.9.9", inclusive)).toBe(false);
    expect(isVersionAffected("6.0", inclusive)).toBe(true);
    expect(isVersionAffected("6.0.1", inclusive)).toBe(true);
    expect(isVersionAffected("6.0.2", inclusive)).toBe(false);
    const exclusive = { ...inclusive, introduced_inclusive: false };
    expect(isVersionAffected("6.0", exclusive)).toBe(false);
    expect(isVersionAffected("6.0.0.1", exclusive)).toBe(true);
    const withoutFlag = { introduced: "6.0", fixed: "6.1", prefix: "<", version: "6.1" } as const;
    expect(isVersionAffected("6.0", withoutFlag)).toBe(true);
  });

  it('treats "<= *" as every version', () => {
    const range = { prefix: "<=", version: "*" } as const;
    expect(isVersionAffected("0.1", range)).toBe(true);
    expect(isVersionAffected("99.0 (17-08-2023)", range)).toBe(true);
    expect(isVersionAffected("*", range)).toBe(true);
  });

  it("falls back to the prefix form when there are no explicit bounds", () => {
    expect(isVersionAffected("1.2", { prefix: "<", version: "1.2" })).toBe(false);
    expect(isVersionAffected("1.1", { prefix: "<", version: "1.2" })).toBe(true);
    expect(isVersionAffected("1.2", { prefix: "<=", version: "1.2" })).toBe(true);
    expect(isVersionAffected("1.2", { prefix: "", version: "1.2.0" })).toBe(true);
    expect(isVersionAffected("1.2.1", { prefix: "", version: "1.2" })).toBe(false);
  });

  it("handles odd version strings from the seed without throwing", () => {
    expect(isVersionAffected(".47.0", { last_affected: ".47.1", prefix: "<=", version: ".47.1" })).toBe(true);
    expect(isVersionAffected("5.8", { fixed: "5.8", prefix: "<", version: "5.8" })).toBe(false);
    expect(isVersionAffected("5.8 beta 1", { fixed: "5.8", prefix: "<", version: "5.8" })).toBe(true);
    expect(
      isVersionAffected("17-07-2019", { last_affected: "17-07-2019", prefix: "<=", version: "17-07-2019" }),
    ).toBe(true);
    expect(
      isVersionAffected("44.1", {
        last_affected: "44.0 (17-08-2023)",
        prefix: "<=",
        version: "44.0 (17-08-2023)",
      }),
    ).toBe(false);
  });

  it("validates a range object with the AffectedRange schema", () => {
    expect(AffectedRange.safeParse({ fixed: "1.0", prefix: "<", version: "1.0" }).success).toBe(true);
    expect(AffectedRange.safeParse({ prefix: ">=", version: "1.0" }).success).toBe(false);
    expect(AffectedRange.safeParse({ prefix: "<=" }).success).toBe(false);
  });
});

describe("describeAffectedRange", () => {
  it("says every bound a range has, in one wording", () => {
    expect(describeAffectedRange({ prefix: "<=", version: "*" })).toBe("every version");
    expect(
      describeAffectedRange({ prefix: "", version: "2.5", introduced: "2.5", last_affected: "2.5" }),
    ).toBe("exactly 2.5");
    expect(describeAffectedRange({ prefix: "<", version: "4.1.1", fixed: "4.1.1" })).toBe("< 4.1.1");
    expect(describeAffectedRange({ prefix: "<=", version: "6.5.4", last_affected: "6.5.4" })).toBe(
      "<= 6.5.4",
    );
    expect(
      describeAffectedRange({
        prefix: "<",
        version: "6.5.5",
        introduced: "6.5",
        introduced_inclusive: true,
        fixed: "6.5.5",
      }),
    ).toBe(">= 6.5, < 6.5.5");
    expect(
      describeAffectedRange({ prefix: "<=", version: "3.0", introduced: "2.0", introduced_inclusive: false }),
    ).toBe("> 2.0, <= 3.0");
    expect(describeAffectedRange({ prefix: "<", version: "1.2", introduced: "0", fixed: "1.2" })).toBe(
      "< 1.2",
    );
  });
});
