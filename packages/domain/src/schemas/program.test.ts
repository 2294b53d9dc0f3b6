import { describe, expect, it } from "vitest";
import { messagesOf } from "../schema-test-kit.ts";
import { Program } from "./program.ts";

const valid = {
  kind: "plugin",
  version: "1.2.3",
  name: "Contact Form Deluxe",
  product_url: "https://wordpress.org/plugins/contact-form-deluxe/",
  description: "Forms.",
  dependencies: "",
  vendor_contact_email: "security@example.com",
  slug: "contact-form-deluxe",
  vendor_website_url: "https://example.com",
};

describe("Program schema (spec §5)", () => {
  it("accepts a complete program and normalises optional blanks to null", () => {
    expect(Program.parse(valid)).toEqual({ ...valid, dependencies: null, plan: "free" });
  });

  it("uses the specification's messages for missing required fields", () => {
    expect(messagesOf(Program, { kind: "theme" })).toEqual({
      name: ["Software name is required."],
      product_url: ["Software URL is required."],
      slug: ["Slug is required."],
      vendor_website_url: ["Website URL is required."],
    });
  });

  it("treats blank required fields as missing", () => {
    expect(
      messagesOf(Program, { ...valid, name: "  ", product_url: "", slug: "", vendor_website_url: " " }),
    ).toEqual({
      name: ["Software name is required."],
      product_url: ["Software URL is required."],
      slug: ["Slug is required."],
      vendor_website_url: ["Website URL is required."],
    });
  });

  it.each([
    "example.com",
    "www.example.com/plugin",
    "ftp://example.com",
    "https://",
    "http:/example.com",
    "https://exa mple.com",
  ])("rejects the URL %j with the URL rule message", (url) => {
    expect(messagesOf(Program, { ...valid, product_url: url, vendor_website_url: url })).toEqual({
      product_url: ["The URL must be a valid URL including the http(s):// protocol."],
      vendor_website_url: ["The URL must be a valid URL including the http(s):// protocol."],
    });
  });

  it.each([
    "http://example.com",
    "https://example.com/path?q=1",
    "HTTPS://Example.com",
    "http://localhost:8080",
  ])("accepts the URL %j", (url) => {
    expect(Program.safeParse({ ...valid, product_url: url }).success).toBe(true);
  });

  it.each(["My-Plugin", "my--plugin", "-plugin", "plugin-", "my_plugin", "my plugin", "plügin"])(
    "rejects the slug %j",
    (slug) => {
      const messages = messagesOf(Program, { ...valid, slug });
      expect(messages.slug).toEqual([
        "Slug must be lowercase letters and digits in groups joined by single hyphens (for example my-plugin).",
      ]);
    },
  );

  it.each(["plugin", "my-plugin-2", "404-page", "a1-b2-c3"])("accepts the slug %j", (slug) => {
    expect(Program.safeParse({ ...valid, slug }).success).toBe(true);
  });

  it("turns an empty vendor contact email into null and validates a given one", () => {
    expect(Program.parse({ ...valid, vendor_contact_email: "" }).vendor_contact_email).toBeNull();
    expect(Program.parse({ ...valid, vendor_contact_email: "  " }).vendor_contact_email).toBeNull();
    expect(Program.parse({ ...valid, vendor_contact_email: null }).vendor_contact_email).toBeNull();
    const { vendor_contact_email: _omitted, ...withoutEmail } = valid;
    expect(Program.parse(withoutEmail).vendor_contact_email).toBeNull();
    expect(messagesOf(Program, { ...valid, vendor_contact_email: "not-an-email" })).toEqual({
      vendor_contact_email: ["Must be a valid email address."],
    });
  });

  it("takes the plan free, premium (Paid) or both, free when missing", () => {
    expect(Program.parse({ ...valid, plan: "both" }).plan).toBe("both");
    expect(Program.parse({ ...valid, plan: "premium" }).plan).toBe("premium");
    expect(Object.keys(messagesOf(Program, { ...valid, plan: "gold" }))).toEqual(["plan"]);
  });

  it("requires the kind to be plugin or theme", () => {
    expect(Object.keys(messagesOf(Program, { ...valid, kind: "core" }))).toEqual(["kind"]);
  });
});
