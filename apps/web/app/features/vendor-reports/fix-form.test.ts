import { describe, expect, it } from "vitest";
import { validateForm } from "../../lib/form-errors.ts";
import { FixForm } from "./report-preview.tsx";

describe("the vendor's fix form", () => {
  it("needs a fixed version, with the API's messages", () => {
    expect(validateForm(FixForm, { fixed_version: " ", notes: "" })).toEqual({
      success: false,
      errors: { fixed_version: ["The fixed version is required."] },
    });
    const spaced = validateForm(FixForm, { fixed_version: "1.2 beta", notes: "" });
    expect(spaced.success).toBe(false);
  });

  it("accepts a version with notes, trimmed", () => {
    expect(validateForm(FixForm, { fixed_version: " 1.2.4 ", notes: " Escaped the label. " })).toEqual({
      success: true,
      data: { fixed_version: "1.2.4", notes: "Escaped the label." },
    });
  });
});
