import { PackageURL } from "packageurl-js";
import { z } from "zod";

/**
 * The names a WordPress component goes by in other tools, as the product API, the product page, the
 * OSV records (`affected[].database_specific`) and the CSAF advisories (product tree) give them:
 * `purl` (`pkg:wordpress/<slug>`, `pkg:wordpress/theme/<slug>`, core `pkg:composer/roots/wordpress`),
 * `composer` (the WPackagist or Packagist package) and `cpe` (CPE 2.3, core only). Why these forms:
 * decision 029. With a version, every identifier names that version.
 */
export const WPACKAGIST_REPOSITORY = "https://wpackagist.org";
const CORE_COMPOSER_PACKAGE = "roots/wordpress";

export const PackageIdentifiers = z
  .object({
    purl: z.string().meta({
      description:
        "Package URL: pkg:wordpress/<slug> (plugins), pkg:wordpress/theme/<slug>, pkg:composer/roots/wordpress (core).",
    }),
    composer: z.object({
      name: z.string().meta({
        description:
          "The Composer package: wpackagist-plugin/<slug>, wpackagist-theme/<slug>, roots/wordpress.",
      }),
      repository: z
        .string()
        .nullable()
        .meta({ description: "The Composer repository serving it; null for Packagist." }),
      purl: z.string().meta({ description: "The Composer package as a Package URL." }),
    }),
    cpe: z
      .string()
      .nullable()
      .meta({ description: "CPE 2.3 formatted string, where known (WordPress core)." }),
  })
  .meta({ id: "PackageIdentifiers" });
export type PackageIdentifiers = z.infer<typeof PackageIdentifiers>;

/**
 * A product's slug as its package identifiers write it (decision 029, amendment of 2026-12-05): lower case (Composer
 * names are; WordPress.org slugs are case-insensitive), every run of characters other than a–z, 0–9,
 * `.`, `_` and `-` as one `-`, a run of separators (`.`, `_`, `-`) as one `-`, none at either end: what
 * Composer accepts as a package name. A WordPress.org slug is
 * already in this form, so only upstream slugs of other origins change: of the 17,547 slugs of the
 * bundled data, one, `Litho - Multipurpose Elementor WordPress Theme` →
 * `litho-multipurpose-elementor-wordpress-theme`, which makes a valid Composer name. The product keeps
 * its upstream slug (its page, its records, the check); the product API also finds it by this form.
 * A slug with nothing left (no Latin letter or digit) is written as its code points in hexadecimal.
 */
export function identifierSlugOf(slug: string): string {
  const simple = slug
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/[._-]{2,}/g, "-")
    .replace(/^[._-]+|[._-]+$/g, "");
  if (simple !== "") return simple;
  return [...slug.trim()].map((character) => character.codePointAt(0)!.toString(16)).join("-") || "0";
}

/** A Package URL in its canonical form, by the reference implementation (packageurl-js). */
const purlOf = (
  type: string,
  namespace: string | null,
  name: string,
  version?: string,
  qualifiers?: Record<string, string>,
) => new PackageURL(type, namespace, name, version || null, qualifiers ?? null, null).toString();

/**
 * A CPE 2.3 formatted-string component: `*` for any, else the value in lower case, white space as `_`
 * (a formatted string has no space, escaped or not: `5.8 beta 1` is `5.8_beta_1`, as NVD writes such
 * versions) and CPE's other specials escaped with a backslash.
 */
function cpeValue(value?: string): string {
  if (!value || value === "*") return "*";
  return value
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "_")
    .replace(/[^a-z0-9._-]/g, (character) => `\\${character}`);
}

export function packageIdentifiersOf(
  product: { kind: string; slug: string },
  version?: string,
): PackageIdentifiers {
  if (product.kind === "core") {
    const purl = purlOf("composer", "roots", "wordpress", version);
    return {
      purl,
      composer: { name: CORE_COMPOSER_PACKAGE, repository: null, purl },
      cpe: `cpe:2.3:a:wordpress:wordpress:${cpeValue(version)}:*:*:*:*:*:*:*`,
    };
  }
  const slug = identifierSlugOf(product.slug);
  const vendor = `wpackagist-${product.kind}`;
  return {
    purl: purlOf("wordpress", product.kind === "theme" ? "theme" : null, slug, version),
    composer: {
      name: `${vendor}/${slug}`,
      repository: WPACKAGIST_REPOSITORY,
      purl: purlOf("composer", vendor, slug, version, { repository_url: WPACKAGIST_REPOSITORY }),
    },
    cpe: null,
  };
}
