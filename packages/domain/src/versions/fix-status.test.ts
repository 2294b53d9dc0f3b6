import { describe, expect, it } from "vitest";
import { describeFix } from "./fix-status.ts";

describe("describeFix", () => {
  const unfixed = { patched: false, fixed_in: null, inferred_fixed_from: null };

  it("prefers the fixed version, then a patch without one", () => {
    expect(describeFix({ ...unfixed, patched: true, fixed_in: "2.1", inferred_fixed_from: "3.0" })).toBe(
      "Fixed in 2.1",
    );
    expect(describeFix({ ...unfixed, patched: true })).toBe("Patched");
  });

  it("says where a later fix was inferred from, and no known fix otherwise", () => {
    expect(describeFix({ ...unfixed, inferred_fixed_from: "3.0" })).toBe(
      "Fixed in a later version (inferred from the current version 3.0)",
    );
    expect(describeFix(unfixed)).toBe("No known fix");
  });

  it("starts in lower case in the middle of a sentence", () => {
    expect(describeFix({ ...unfixed, inferred_fixed_from: "3.0" }, { inline: true })).toBe(
      "fixed in a later version (inferred from the current version 3.0)",
    );
    expect(describeFix(unfixed, { inline: true })).toBe("no known fix");
  });
});
