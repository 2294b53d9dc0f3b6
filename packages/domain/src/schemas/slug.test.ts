import { describe, expect, it } from "vitest";
import { SLUG_PATTERN, slugify, VULNERABILITY_SLUG_KEY_PATTERN, vulnerabilitySlug } from "./slug.ts";

describe("slugify", () => {
  it.each([
    [
      "Smash Balloon Social Post Feed <= 4.1 - Reflected Cross-Site Scripting",
      "smash-balloon-social-post-feed-4-1-reflected-cross-site-scripting",
    ],
    [
      "We’re Open! <= 1.37 - Authenticated (Administrator+) Stored XSS",
      "we-re-open-1-37-authenticated-administrator-stored-xss",
    ],
    ["EnvíaloSimple Café", "envialosimple-cafe"],
    ["  --Ultimate_VC_Addons--  ", "ultimate-vc-addons"],
    ["<script>alert(1)</script>", "script-alert-1-script"],
    ["日本語", ""],
  ])("turns %j into %j", (text, slug) => {
    expect(slugify(text)).toBe(slug);
    if (slug !== "") expect(slug).toMatch(SLUG_PATTERN);
  });

  it("cuts long text at a hyphen within the limit", () => {
    const slug = slugify("alpha beta gamma delta epsilon", 20);
    expect(slug).toBe("alpha-beta-gamma");
    expect(slugify("abcdefghijklmnopqrstuvwxyz", 10)).toBe("abcdefghij");
    const long = slugify("word ".repeat(60));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(SLUG_PATTERN);
  });
});

describe("VULNERABILITY_SLUG_KEY_PATTERN (what may name a record by its slug, in both apps)", () => {
  it("accepts every slug vulnerabilitySlug makes", () => {
    for (const title of ["Contact Form 7 <= 5.3.1 - Unrestricted File Upload", "日本語", "x".repeat(300)]) {
      expect(vulnerabilitySlug(title, "0F8FAD5B-D9CB-469F-A165-70867728950E")).toMatch(
        VULNERABILITY_SLUG_KEY_PATTERN,
      );
    }
  });

  it("refuses anything else", () => {
    for (const key of ["", "Has-Capitals", "under_score", "dot.ted", "a b", "a".repeat(201)]) {
      expect(key).not.toMatch(VULNERABILITY_SLUG_KEY_PATTERN);
    }
  });
});
