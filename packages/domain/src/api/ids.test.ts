import { describe, expect, it } from "vitest";
import { numericIdOf } from "./ids.ts";

describe("numericIdOf (spec §2: a path id is digits only, else the page or resource is not found)", () => {
  it("reads digits as the id", () => {
    expect(numericIdOf("1")).toBe(1);
    expect(numericIdOf("007")).toBe(7);
    expect(numericIdOf("2147483647")).toBe(2_147_483_647);
  });

  it("names nothing for anything else", () => {
    for (const value of [
      undefined,
      "",
      "0",
      "-1",
      "1.5",
      "1e3",
      " 1",
      "12a",
      "2147483648",
      "99999999999",
      "１",
    ]) {
      expect(numericIdOf(value), String(value)).toBeNull();
    }
  });
});
