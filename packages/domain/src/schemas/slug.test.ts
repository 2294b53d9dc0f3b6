import { describe, expect, it } from "vitest";
import { SLUG_PATTERN, slugify } from "./slug.ts";

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
