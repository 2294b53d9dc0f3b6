import { describe, expect, it } from "vitest";
import { descriptionHtml } from "./description-html.ts";

/** The stored-XSS corpus of ui/markdown.test.tsx, plus the shapes a feed record could carry. */
const XSS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '<img src=x onerror="alert(1)">',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  '<svg onload="alert(1)"></svg>',
  "![x](javascript:alert(1))",
  '![x" onerror="alert(1)](https://evil.example/a.png)',
  '<a href="javascript:alert(1)">x</a>',
  "[v](vbscript:msgbox(1))",
  "[ref]\n\n[ref]: javascript:alert(1)",
  "<javascript:alert(1)>",
  "`<script>alert(1)</script>`",
  "```\n<script>alert(1)</script>\n```",
  "<div>\n<b>bold</b>\n</div>",
];

/** The text a reader sees: the tags removed, the character references read. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");

describe("descriptionHtml", () => {
  it("renders backtick code, blank-line paragraphs and links of a Wordfence description", () => {
    const html = descriptionHtml(
      "The plugin is vulnerable via the `ViaAds_pluginHandler` function.\n\nSee [the advisory](https://www.wordfence.com/threat-intel/) for details.",
    );
    expect(html).toBe(
      "<p>The plugin is vulnerable via the <code>ViaAds_pluginHandler</code> function.</p>\n" +
        '<p>See <a rel="nofollow noopener noreferrer" target="_blank" href="https://www.wordfence.com/threat-intel/">the advisory</a> for details.</p>',
    );
  });

  it("keeps emphasis, lists and fenced code", () => {
    const html = descriptionHtml("Check **the** *role*:\n\n- one\n- two\n\n```php\nset_role( $x );\n```");
    expect(html).toContain("<strong>the</strong> <em>role</em>");
    expect(html).toContain("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    expect(html).toContain('<pre><code class="language-php">set_role( $x );\n</code></pre>');
  });

  it("reads indented paragraphs of imported records as paragraphs, not code blocks", () => {
    // Five imported records indent their later paragraphs (data README §1.3 keeps the text as is).
    const html = descriptionHtml(
      "The following plugins are vulnerable:\n                                \n                                a3 Lazy Load (<= 2.6.0).",
    );
    expect(html).toBe("<p>The following plugins are vulnerable:</p>\n<p>a3 Lazy Load (&lt;= 2.6.0).</p>");
  });

  it.each(XSS)("renders %j without anything executable", (source) => {
    const html = descriptionHtml(source);
    const tags = html.match(/<[^>]*>/g) ?? [];
    for (const tag of tags) {
      expect(tag).toMatch(/^<\/?(p|a|code|pre|em|strong|span)[\s>]/);
      expect(tag).not.toMatch(/\son\w+=|javascript:|vbscript:|data:/i);
    }
  });

  it("shows raw HTML as the text it is", () => {
    expect(descriptionHtml("<script>alert(1)</script>")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(descriptionHtml("a <img src=x onerror=alert(1)> b")).toBe(
      "<p>a &lt;img src=x onerror=alert(1)&gt; b</p>",
    );
    expect(textOf(descriptionHtml('Create a form titled <script>alert("1")</script> & save'))).toBe(
      'Create a form titled <script>alert("1")</script> & save',
    );
  });

  it("gives a javascript: or data: link no such href", () => {
    expect(descriptionHtml("[x](javascript:alert(1))")).toBe(
      '<p><a rel="nofollow noopener noreferrer" target="_blank" href="">x</a></p>',
    );
    expect(descriptionHtml("[x](data:text/html,hi)")).not.toContain("data:");
  });

  it("loads no image: an image becomes its alt text", () => {
    const html = descriptionHtml('Before ![the "chart"](https://tracker.example/pixel.png "t") after');
    expect(html).toBe("<p>Before <span>[image: the &quot;chart&quot;]</span> after</p>");
    expect(html).not.toContain("tracker.example");
    expect(descriptionHtml("![](https://tracker.example/pixel.png)")).toBe("<p><span>[image]</span></p>");
    // Through a definition, and inside a link.
    expect(descriptionHtml("![pixel][p]\n\n[p]: https://tracker.example/p.png")).not.toMatch(/<img|tracker/);
    expect(descriptionHtml("[![pixel](https://tracker.example/p.png)](https://example.com)")).toBe(
      '<p><a rel="nofollow noopener noreferrer" target="_blank" href="https://example.com"><span>[image: pixel]</span></a></p>',
    );
  });

  it("is empty for an empty description", () => {
    expect(descriptionHtml("")).toBe("");
  });
});
