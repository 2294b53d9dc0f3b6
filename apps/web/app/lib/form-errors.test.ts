import {
  EMAIL_MESSAGE,
  Program,
  URL_MESSAGE,
  VendorAccount,
  WATCHLIST_MESSAGES,
  WatchlistCreation,
} from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api/api-error.ts";
import { apiErrorAtField, apiErrorToFieldErrors, FORM_ERROR_KEY, validateForm } from "./form-errors.ts";

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

  it("puts a message at the field `fieldOf` names for its whole path", () => {
    const result = validateForm(
      WatchlistCreation,
      { name: "", entries: [{ kind: "plugin", slug: "akismet", version: "" }] },
      (path) => (path.startsWith("entries.") ? path.split(".").slice(0, 2).join(".") : path),
    );
    expect(result.success ? null : Object.keys(result.errors)).toEqual(["name", "entries.0"]);
    expect(result.success ? null : result.errors.name).toEqual([WATCHLIST_MESSAGES.nameRequired]);
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

  it("puts a request's field at the form's field `fieldOf` names", () => {
    const error = new ApiError(422, "invalid", {
      errors: { "entries.0.version": ["Not a version."], "entries.1.slug": ["Too long."], name: ["Taken."] },
    });
    expect(
      apiErrorToFieldErrors(error, ["name", "inventory"], (field) =>
        field.split(".")[0] === "entries" ? "inventory" : field,
      ),
    ).toEqual({
      inventory: ["Not a version.", "Too long."],
      name: ["Taken."],
    });
  });
});

describe("apiErrorAtField", () => {
  it("shows every message of a failed save at the form's one field", () => {
    const error = new ApiError(422, "invalid", { errors: { name: ["Taken."], other: ["Bad."] } });
    expect(apiErrorAtField(error, "name")).toEqual({ name: ["Taken.", "other: Bad."] });
    expect(apiErrorAtField(new ApiError(404, "Watchlist not found."), "name")).toEqual({
      name: ["Watchlist not found."],
    });
  });
});
