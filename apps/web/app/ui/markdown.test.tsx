import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, safeUrl } from "./markdown.tsx";

const XSS = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  '<svg onload="alert(1)"></svg>',
  "![x](javascript:alert(1))",
  '<a href="javascript:alert(1)">x</a>',
  "[v](vbscript:msgbox(1))",
];

describe("Markdown", () => {
  it.each(XSS)("renders %j without anything executable", (source) => {
    const html = renderToStaticMarkup(<Markdown>{source}</Markdown>);
    // Raw HTML is shown as escaped text: only the rendered tags themselves must be inert.
    const tags = html.match(/<[^>]*>/g) ?? [];
    for (const tag of tags) {
      expect(tag).not.toMatch(/<script|\son\w+=|javascript:|vbscript:|data:text|<svg|<img/i);
    }
  });

  // Issue 38: a proof of concept lost its HTML ("Create a form titled alert(1)").
  it.each([
    ["Create a form titled <script>alert(1)</script>", "Create a form titled <script>alert(1)</script>"],
    ['[widget label="<script>alert(1)</script>"]', '[widget label="<script>alert(1)</script>"]'],
    ['<img src=x onerror="alert(1)">', '<img src=x onerror="alert(1)">'],
    ["<div>\n<b>bold</b>\n</div>", "<div>\n<b>bold</b>\n</div>"],
  ])("shows the raw HTML of %j as text", (source, shown) => {
    const html = renderToStaticMarkup(<Markdown>{source}</Markdown>);
    const text = html
      .replace(/<[^>]*>/g, "")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&amp;", "&");
    expect(text.trim()).toBe(shown);
    expect(html).not.toMatch(/<(script|img|b)[\s>]/);
    expect(html.match(/<div/g)).toHaveLength(1);
  });

  it("keeps ordinary Markdown", () => {
    const html = renderToStaticMarkup(
      <Markdown>
        {"**Steps**\n\n1. Open [the page](https://example.com/a)\n\n```\ncurl -X POST\n```"}
      </Markdown>,
    );
    expect(html).toContain("<strong>Steps</strong>");
    expect(html).toContain('href="https://example.com/a"');
    expect(html).toContain('rel="nofollow noopener noreferrer"');
    expect(html).toContain("<code>curl -X POST\n</code>");
  });

  it("keeps http(s), mailto and relative URLs only", () => {
    expect(safeUrl("https://example.com")).toBe("https://example.com");
    expect(safeUrl("mailto:a@example.com")).toBe("mailto:a@example.com");
    expect(safeUrl("/database")).toBe("/database");
    expect(safeUrl("javascript:alert(1)")).toBe("");
    expect(safeUrl("ftp://example.com")).toBe("");
  });
});
