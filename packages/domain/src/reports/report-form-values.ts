/** PRODUCT.md §3 limits. */
export const REPORT_LIMITS = {
  titleMin: 10,
  titleMax: 200,
  markdownMin: 30,
  markdownMax: 50_000,
  productSlugMax: 200,
  productNameMax: 200,
  versionMax: 64,
} as const;

/**
 * A product slug as the public database keys it. New products get a lower-case slug; imported
 * premium products keep the capitals their source gave them, so capitals are accepted for lookup.
 */
export const PRODUCT_SLUG_PATTERN = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;
/** A version string: no spaces; digits, letters and the separators versions use. */
export const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;
export const CVE_PATTERN = /^CVE-\d{4}-\d{4,}$/;

export const REPORT_MESSAGES = {
  kind: "Software kind must be plugin, theme or core.",
  productSlugRequired: "The software slug is required.",
  productSlug:
    "The software slug may contain only letters, digits and single dots, hyphens or underscores between them.",
  productNameRequired: "The software name is required.",
  versionPrefix: 'The version prefix must be "<=", "<" or empty (a specific version).',
  versionRequired: "The affected version is required.",
  version: "The version may contain only letters, digits, dots, plus signs, hyphens and underscores.",
  titleRequired: "The title is required.",
  title: `The title must be ${REPORT_LIMITS.titleMin} to ${REPORT_LIMITS.titleMax} characters long.`,
  cvss31: "Use a CVSS 3.1 vector: it starts with CVSS:3.1/.",
  emailRequired: "Your e-mail address is required when you are not signed in.",
  cve: "A CVE id looks like CVE-2025-12345.",
} as const;

/** The form's fields in display order. */
export const REPORT_FORM_FIELDS = [
  "kind",
  "product_slug",
  "product_name",
  "affected_version_prefix",
  "affected_version",
  "vulnerability_type",
  "owasp_category",
  "required_privilege",
  "title",
  "description",
  "steps_to_reproduce",
  "proof_of_concept",
  "suggested_fix",
  "cvss_vector",
  "email",
] as const;
