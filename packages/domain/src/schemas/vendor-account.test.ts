import { describe, expect, it } from "vitest";
import { messagesOf } from "../schema-test-kit.ts";
import { VendorAccount } from "./vendor-account.ts";

const valid = {
  vendor_name: "Acme Plugins",
  url: "https://acme.example",
  contact_email: "security@acme.example",
  contact_person: "Ada Lovelace",
  timezone: "Europe/Tallinn",
};

describe("VendorAccount schema (spec §5)", () => {
  it("accepts a complete account", () => {
    expect(VendorAccount.parse(valid)).toEqual({ ...valid, country: null });
  });

  it("uses the specification's messages for missing required fields", () => {
    expect(messagesOf(VendorAccount, {})).toEqual({
      vendor_name: ["Vendor name is required."],
      contact_email: ["Vendor email is required."],
      contact_person: ["Person of contact is required."],
      timezone: ["Timezone is required."],
    });
    expect(
      messagesOf(VendorAccount, { vendor_name: " ", contact_email: "", contact_person: "", timezone: "" }),
    ).toEqual({
      vendor_name: ["Vendor name is required."],
      contact_email: ["Vendor email is required."],
      contact_person: ["Person of contact is required."],
      timezone: ["Timezone is required."],
    });
  });

  it("requires a valid contact email", () => {
    expect(messagesOf(VendorAccount, { ...valid, contact_email: "acme.example" })).toEqual({
      contact_email: ["Must be a valid email address."],
    });
  });

  it("makes the URL optional but applies the URL rule when present", () => {
    expect(VendorAccount.parse({ ...valid, url: "" }).url).toBeNull();
    const { url: _omitted, ...withoutUrl } = valid;
    expect(VendorAccount.parse(withoutUrl).url).toBeNull();
    expect(messagesOf(VendorAccount, { ...valid, url: "acme.example" })).toEqual({
      url: ["The URL must be a valid URL including the http(s):// protocol."],
    });
  });

  it("rejects an unknown time zone", () => {
    expect(messagesOf(VendorAccount, { ...valid, timezone: "Mars/Olympus" })).toEqual({
      timezone: ["Timezone must be a valid time zone."],
    });
    expect(VendorAccount.safeParse({ ...valid, timezone: "UTC" }).success).toBe(true);
  });

  it("takes an optional ISO country code", () => {
    expect(VendorAccount.parse({ ...valid, country: "EE" }).country).toBe("EE");
    expect(VendorAccount.parse({ ...valid, country: "" }).country).toBeNull();
    expect(VendorAccount.safeParse({ ...valid, country: "XX" }).success).toBe(false);
  });
});
