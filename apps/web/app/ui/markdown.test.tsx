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
    expect(html).not.toMatch(/<script|onerror|onload|javascript:|vbscript:|data:text|<svg|<img/i);
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
