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

/** A version as a purl's `@version`: percent-encoded except the characters purl leaves as they are. */
const purlVersion = (version?: string) =>
  version ? `@${encodeURIComponent(version).replace(/%2B/g, "+")}` : "";

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
  const at = purlVersion(version);
  if (product.kind === "core") {
    const purl = `pkg:composer/${CORE_COMPOSER_PACKAGE}${at}`;
    return {
      purl,
      composer: { name: CORE_COMPOSER_PACKAGE, repository: null, purl },
      cpe: `cpe:2.3:a:wordpress:wordpress:${cpeValue(version)}:*:*:*:*:*:*:*`,
    };
  }
  const slug = product.slug.toLowerCase();
  const composerName = `wpackagist-${product.kind}/${slug}`;
  return {
    purl: product.kind === "theme" ? `pkg:wordpress/theme/${slug}${at}` : `pkg:wordpress/${slug}${at}`,
    composer: {
      name: composerName,
      repository: WPACKAGIST_REPOSITORY,
      purl: `pkg:composer/${composerName}${at}?repository_url=${encodeURIComponent(WPACKAGIST_REPOSITORY)}`,
    },
    cpe: null,
  };
}
