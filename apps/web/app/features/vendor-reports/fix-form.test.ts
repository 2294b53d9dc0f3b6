import { describe, expect, it } from "vitest";
import { addFilesBy } from "../../components/attachment-field.tsx";
import { validateForm } from "../../lib/form-errors.ts";
import { fixFileRules } from "./fix-files.tsx";
import { FixForm } from "./report-preview.tsx";

describe("the vendor's fix form", () => {
  it("needs a fixed version, with the API's messages", () => {
    expect(validateForm(FixForm, { fixed_version: " ", notes: "", fix_url: "" })).toEqual({
      success: false,
      errors: { fixed_version: ["The fixed version is required."] },
    });
    const spaced = validateForm(FixForm, { fixed_version: "1.2 beta", notes: "", fix_url: "" });
    expect(spaced.success).toBe(false);
  });

  it("accepts a version with notes and a link, trimmed; a blank link is none", () => {
    expect(
      validateForm(FixForm, {
        fixed_version: " 1.2.4 ",
        notes: " Escaped the label. ",
        fix_url: " https://acme.example/1.2.4 ",
      }),
    ).toEqual({
      success: true,
      data: { fixed_version: "1.2.4", notes: "Escaped the label.", fix_url: "https://acme.example/1.2.4" },
    });
    expect(validateForm(FixForm, { fixed_version: "1.2.4", notes: "", fix_url: "" })).toMatchObject({
      success: true,
      data: { fix_url: null },
    });
  });

  it("takes only http(s) links of at most 2,000 characters", () => {
    for (const fixUrl of ["javascript:alert(1)", "acme.example/fix", `https://a.example/${"a".repeat(2000)}`])
      expect(validateForm(FixForm, { fixed_version: "1.2.4", notes: "", fix_url: fixUrl }).success).toBe(
        false,
      );
  });
});

describe("the fix files", () => {
  const file = (name: string, size = 10) => new File([new Uint8Array(size)], name, { lastModified: 1 });

  it("takes zips only, up to what the report still holds", () => {
    const { files, errors } = addFilesBy(
      fixFileRules(3),
      [],
      [file("fix.zip"), file("fix.tar.gz"), file("tests.ZIP"), file("more.zip")],
    );
    expect(files.map((kept) => kept.name)).toEqual(["fix.zip", "tests.ZIP"]);
    expect(errors).toEqual([
      "fix.tar.gz: Attach the fix as a .zip file.",
      "more.zip: A report has at most 5 fix files.",
    ]);
  });
});
