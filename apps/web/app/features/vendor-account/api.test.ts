import { describe, expect, it } from "vitest";
import { canEditAccount } from "./api.ts";

describe("canEditAccount (PRODUCT.md §4)", () => {
  it("lets owners and admins change the account, and members only read it", () => {
    expect(canEditAccount("owner")).toBe(true);
    expect(canEditAccount("admin")).toBe(true);
    expect(canEditAccount("member")).toBe(false);
    expect(canEditAccount(undefined)).toBe(false);
  });
});
