import { PackageURL } from "packageurl-js";
import { describe, expect, it } from "vitest";
import { identifierSlugOf, packageIdentifiersOf } from "./package-identifiers.ts";

/** Composer's rule for a package name (composer/composer's ValidatingArrayLoader). */
const COMPOSER_NAME = /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/;

/** A purl as the reference implementation writes it after reading it back: canonical. */
const canonical = (purl: string) => PackageURL.fromString(purl).toString();

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

  it("normalises an upstream slug with spaces: a valid Composer name and canonical purls (issue 38)", () => {
    const slug = "Litho - Multipurpose Elementor WordPress Theme";
    expect(identifierSlugOf(slug)).toBe("litho-multipurpose-elementor-wordpress-theme");
    const identifiers = packageIdentifiersOf({ kind: "theme", slug });
    expect(identifiers).toEqual({
      purl: "pkg:wordpress/theme/litho-multipurpose-elementor-wordpress-theme",
      composer: {
        name: "wpackagist-theme/litho-multipurpose-elementor-wordpress-theme",
        repository: "https://wpackagist.org",
        purl: "pkg:composer/wpackagist-theme/litho-multipurpose-elementor-wordpress-theme?repository_url=https%3A%2F%2Fwpackagist.org",
      },
      cpe: null,
    });
    expect(identifiers.composer.name).toMatch(COMPOSER_NAME);
    const withVersion = packageIdentifiersOf({ kind: "theme", slug }, "3.0");
    for (const purl of [
      identifiers.purl,
      identifiers.composer.purl,
      withVersion.purl,
      withVersion.composer.purl,
    ]) {
      expect(canonical(purl)).toBe(purl);
      expect(purl).not.toMatch(/\s/);
    }
    expect(withVersion.purl).toBe("pkg:wordpress/theme/litho-multipurpose-elementor-wordpress-theme@3.0");
  });

  it("leaves a WordPress.org slug as it is but for its case, and every identifier canonical and valid", () => {
    for (const slug of ["contact-form-7", "wp-super-cache", "a.b_c-d", "Avada", "LayerSlider"]) {
      expect(identifierSlugOf(slug)).toBe(slug.toLowerCase());
    }
    expect(identifierSlugOf("  --Foo__ Bar!!--  ")).toBe("foo-bar");
    expect(identifierSlugOf("日本")).toBe("65e5-672c");
    for (const product of [
      { kind: "plugin", slug: "Contact-Form-7" },
      { kind: "theme", slug: "astra" },
      { kind: "theme", slug: "Litho - Multipurpose Elementor WordPress Theme" },
      { kind: "plugin", slug: "  --Foo__ Bar!!--  " },
      { kind: "core", slug: "wordpress" },
    ]) {
      for (const version of [undefined, "1.0", "4.1.0+build 2", "6.0-RC1"]) {
        const identifiers = packageIdentifiersOf(product, version);
        expect(identifiers.composer.name).toMatch(COMPOSER_NAME);
        expect(canonical(identifiers.purl)).toBe(identifiers.purl);
        expect(canonical(identifiers.composer.purl)).toBe(identifiers.composer.purl);
      }
    }
  });
});
