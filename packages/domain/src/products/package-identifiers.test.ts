import { describe, expect, it } from "vitest";
import { packageIdentifiersOf } from "./package-identifiers.ts";

describe("packageIdentifiersOf", () => {
  it("names a plugin by pkg:wordpress and its WPackagist package, in lower case, with no CPE", () => {
    expect(packageIdentifiersOf({ kind: "plugin", slug: "Contact-Form-7" })).toEqual({
      purl: "pkg:wordpress/contact-form-7",
      composer: {
        name: "wpackagist-plugin/contact-form-7",
        repository: "https://wpackagist.org",
        purl: "pkg:composer/wpackagist-plugin/contact-form-7?repository_url=https%3A%2F%2Fwpackagist.org",
      },
      cpe: null,
    });
  });

  it("keeps a theme apart from a plugin of the same slug, and names a version in every identifier", () => {
    const theme = packageIdentifiersOf({ kind: "theme", slug: "astra" }, "4.1.0+build 2");
    expect(theme.purl).toBe("pkg:wordpress/theme/astra@4.1.0+build%202");
    expect(theme.composer.name).toBe("wpackagist-theme/astra");
    expect(theme.composer.purl).toBe(
      "pkg:composer/wpackagist-theme/astra@4.1.0+build%202?repository_url=https%3A%2F%2Fwpackagist.org",
    );
  });

  it("names core roots/wordpress on Packagist with its CPE, spaces in a version as _ and specials escaped", () => {
    expect(packageIdentifiersOf({ kind: "core", slug: "wordpress" })).toEqual({
      purl: "pkg:composer/roots/wordpress",
      composer: { name: "roots/wordpress", repository: null, purl: "pkg:composer/roots/wordpress" },
      cpe: "cpe:2.3:a:wordpress:wordpress:*:*:*:*:*:*:*:*",
    });
    expect(packageIdentifiersOf({ kind: "core", slug: "wordpress" }, "5.8.3").cpe).toBe(
      "cpe:2.3:a:wordpress:wordpress:5.8.3:*:*:*:*:*:*:*",
    );
    expect(packageIdentifiersOf({ kind: "core", slug: "wordpress" }, "5.8 Beta 1").cpe).toBe(
      "cpe:2.3:a:wordpress:wordpress:5.8_beta_1:*:*:*:*:*:*:*",
    );
    expect(packageIdentifiersOf({ kind: "core", slug: "wordpress" }, "6.0-rc1+x").cpe).toBe(
      "cpe:2.3:a:wordpress:wordpress:6.0-rc1\\+x:*:*:*:*:*:*:*",
    );
  });
});
