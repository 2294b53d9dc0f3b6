import { describe, expect, it } from "vitest";
import { type FeedEntryRow, renderAtomFeed } from "./atom.ts";

const row: FeedEntryRow = {
  id: "01889c7b-f47b-4caf-8e35-4f8af188426e",
  slug: "a-b-01889c7b",
  title: 'Plugin <= 1.0 - "Stored" XSS via <script> & co\u0001\u0008',
  cve: null,
  severity: null,
  cvss_score: null,
  type_code: null,
  patched: false,
  fixed_in: null,
  inferred_fixed_from: null,
  published_at: null,
  created_at: new Date("2026-11-01T10:00:00Z"),
  affected_versions: "<= 1.0",
  product_id: 1,
  platform: "wordpress",
  kind: "plugin",
  product_slug: "a&b",
  product_name: "A & B",
  known_exploited: null,
  epss: null,
  withdrawn_at: null,
  description: null,
};

describe("renderAtomFeed", () => {
  it("escapes markup, drops characters XML forbids, and dates undated records by import", () => {
    const feed = renderAtomFeed({
      title: "T",
      selfUrl: "https://x/feed",
      alternateUrl: "https://x",
      appUrl: "https://x",
      rows: [row],
    });
    expect(feed).toContain(
      '<title type="text">Plugin &lt;= 1.0 - &quot;Stored&quot; XSS via &lt;script&gt; &amp; co</title>',
    );
    expect(feed).toContain('href="https://x/database/wordpress/plugin/a%26b/vulnerability/a-b-01889c7b"');
    expect(feed).toContain("<updated>2026-11-01T10:00:00.000Z</updated>");
    expect(feed).not.toContain("<published>");
    expect(feed).toContain(
      '<summary type="text">A &amp; B (plugin), affected: &lt;= 1.0, no known fix</summary>',
    );
  });

  it("says a record behind the product's current version is fixed in a later version", () => {
    const feed = renderAtomFeed({
      title: "T",
      selfUrl: "s",
      alternateUrl: "a",
      appUrl: "",
      rows: [{ ...row, inferred_fixed_from: "3.0" }],
    });
    expect(feed).toContain(
      "affected: &lt;= 1.0, fixed in a later version (inferred from the current version 3.0)</summary>",
    );
  });

  it("carries the description as HTML content, escaped for XML, and no content without one", () => {
    const feed = renderAtomFeed({
      title: "T",
      selfUrl: "s",
      alternateUrl: "a",
      appUrl: "",
      rows: [{ ...row, description: "Via `a_b()` & <script>x</script>\u0001\n\nSecond." }],
    });
    expect(feed).toContain(
      '<content type="html">&lt;p&gt;Via &lt;code&gt;a_b()&lt;/code&gt; &amp;amp; &amp;lt;script&amp;gt;x&amp;lt;/script&amp;gt;&lt;/p&gt;\n&lt;p&gt;Second.&lt;/p&gt;</content>',
    );
    const none = renderAtomFeed({ title: "T", selfUrl: "s", alternateUrl: "a", appUrl: "", rows: [row] });
    expect(none).not.toContain("<content");
  });

  it("is a well-formed empty feed when nothing is published", () => {
    const feed = renderAtomFeed({ title: "T", selfUrl: "s", alternateUrl: "a", appUrl: "", rows: [] });
    expect(feed).toContain("<updated>1970-01-01T00:00:00.000Z</updated>");
    expect(feed.trim().endsWith("</feed>")).toBe(true);
  });
});
