import { describe, expect, it } from "vitest";
import { renderSitemapIndex, renderUrlset, xmlText } from "./sitemap-xml.ts";

describe("the sitemap XML", () => {
  it("escapes the five characters the protocol names", () => {
    expect(xmlText(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
  });

  it("writes each URL escaped, with its last change to the second when known", () => {
    const xml = renderUrlset([
      { loc: "https://site.example/search?q=a&page=2", lastmod: new Date("2026-11-30T10:11:12.345Z") },
      { loc: "https://site.example/database" },
    ]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        "<url><loc>https://site.example/search?q=a&amp;page=2</loc><lastmod>2026-11-30T10:11:12.345Z</lastmod></url>",
        "<url><loc>https://site.example/database</loc></url>",
        "</urlset>",
        "",
      ].join("\n"),
    );
  });

  it("writes the index of child sitemaps", () => {
    expect(renderSitemapIndex([{ loc: "https://site.example/sitemap-pages.xml", lastmod: null }])).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        "<sitemap><loc>https://site.example/sitemap-pages.xml</loc></sitemap>",
        "</sitemapindex>",
        "",
      ].join("\n"),
    );
  });
});
