import { packageIdentifiersOf } from "@pressguard/domain";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PackageIdentifierList } from "./package-identifiers.tsx";

describe("the product page's Identifiers block", () => {
  it("shows a plugin's purl and Composer package as selectable values, without a CPE", () => {
    const html = renderToStaticMarkup(
      <PackageIdentifierList
        identifiers={packageIdentifiersOf({ kind: "plugin", slug: "contact-form-7" })}
      />,
    );
    expect(html).toContain("Identifiers");
    expect(html).toContain('<code class="select-all');
    expect(html).toContain(">pkg:wordpress/contact-form-7</code>");
    expect(html).toContain(">wpackagist-plugin/contact-form-7</code>");
    expect(html).toContain("from https://wpackagist.org");
    expect(html).not.toContain("CPE");
  });

  it("shows core's CPE", () => {
    const html = renderToStaticMarkup(
      <PackageIdentifierList identifiers={packageIdentifiersOf({ kind: "core", slug: "wordpress" })} />,
    );
    expect(html).toContain(">cpe:2.3:a:wordpress:wordpress:*:*:*:*:*:*:*:*</code>");
    expect(html).toContain("on Packagist");
  });
});
