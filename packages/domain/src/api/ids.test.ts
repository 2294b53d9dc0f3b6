import { describe, expect, it } from "vitest";
import { isUuid, numericIdOf } from "./ids.ts";

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

describe("isUuid (the one UUID pattern of both apps)", () => {
  it("reads a UUID in either case", () => {
    expect(isUuid("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe(true);
    expect(isUuid("0F8FAD5B-D9CB-469F-A165-70867728950E")).toBe(true);
  });

  it("refuses anything else", () => {
    for (const value of [
      "",
      "0f8fad5b-d9cb-469f-a165-70867728950",
      "0f8fad5b-d9cb-469f-a165-70867728950e0",
      "0f8fad5bd9cb469fa16570867728950e",
      " 0f8fad5b-d9cb-469f-a165-70867728950e",
      "0f8fad5g-d9cb-469f-a165-70867728950e",
    ]) {
      expect(isUuid(value), value).toBe(false);
    }
  });
});
