import { EMAIL_MESSAGE, Program, URL_MESSAGE, VendorAccount } from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api/api-error.ts";
import { apiErrorToFieldErrors, FORM_ERROR_KEY, validateForm } from "./form-errors.ts";

describe("validateForm", () => {
  it("gives the §5 Program messages per field for an empty form", () => {
    const result = validateForm(Program, {
      kind: "plugin",
      name: "",
      product_url: "",
      slug: "",
      vendor_website_url: "",
      vendor_contact_email: "",
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual({
      name: ["Software name is required."],
      product_url: ["Software URL is required."],
      slug: ["Slug is required."],
      vendor_website_url: ["Website URL is required."],
    });
  });

  it("gives the URL and e-mail rules for malformed values", () => {
    const result = validateForm(Program, {
      kind: "plugin",
      name: "A",
      product_url: "example.com",
      slug: "a",
      vendor_website_url: "https://example.com",
      vendor_contact_email: "nope",
    });
    expect(result.success ? null : result.errors).toEqual({
      product_url: [URL_MESSAGE],
      vendor_contact_email: [EMAIL_MESSAGE],
    });
  });

  it("gives the §5 account messages for an empty account", () => {
    const result = validateForm(VendorAccount, {
      vendor_name: "",
      url: "",
      contact_email: "",
      contact_person: "",
      timezone: "",
      country: "",
    });
    expect(result.success ? null : result.errors).toEqual({
      vendor_name: ["Vendor name is required."],
      contact_email: ["Vendor email is required."],
      contact_person: ["Person of contact is required."],
      timezone: ["Timezone is required."],
    });
  });

  it("returns the parsed data (an empty contact e-mail becomes null)", () => {
    const result = validateForm(Program, {
      kind: "theme",
      name: "A",
      product_url: "https://example.com/a",
      slug: "a",
      vendor_website_url: "https://example.com",
      vendor_contact_email: "",
    });
    expect(result.success && result.data.vendor_contact_email).toBeNull();
  });
});

describe("apiErrorToFieldErrors", () => {
  it("puts a 422's messages next to their fields, unknown fields at form level", () => {
    const error = new ApiError(422, "slug taken", {
      errors: { slug: ["This slug belongs to another vendor."], other: ["Bad."] },
    });
    expect(apiErrorToFieldErrors(error, ["slug", "name"])).toEqual({
      slug: ["This slug belongs to another vendor."],
      [FORM_ERROR_KEY]: ["other: Bad."],
    });
  });

  it("makes any other failure one form-level message", () => {
    expect(apiErrorToFieldErrors(new ApiError(500, "Internal server error"), ["slug"])).toEqual({
      [FORM_ERROR_KEY]: ["Internal server error"],
    });
  });
});
