import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { JsonLd, serializeJsonLd } from "./json-ld.tsx";

const HOSTILE = 'Plugin <= 1.0 - XSS </script><script>alert("x")</script> & <!-- \u2028';

describe("JSON-LD", () => {
  it("escapes what could end the script element, and parses back to the same value", () => {
    const json = serializeJsonLd({ headline: HOSTILE });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(json)).toEqual({ headline: HOSTILE });
  });

  it("renders one inert data block whose text is the escaped JSON", () => {
    const html = renderToStaticMarkup(<JsonLd data={{ "@type": "TechArticle", headline: HOSTILE }} />);
    expect(html.startsWith('<script type="application/ld+json">')).toBe(true);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain("<script>alert");
    const text = html.slice(html.indexOf(">") + 1, html.lastIndexOf("</script>"));
    expect(JSON.parse(text)).toEqual({ "@type": "TechArticle", headline: HOSTILE });
  });
});
