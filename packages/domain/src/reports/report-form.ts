import { z } from "zod";
import { parseCvssVector } from "../cvss/cvss.ts";
import { ComponentKind } from "../enums/component-kinds.ts";
import { OwaspCode } from "../enums/owasp.ts";
import { WordPressRoleCode } from "../enums/roles.ts";
import { VersionPrefix } from "../enums/version-prefixes.ts";
import { VulnerabilityTypeCode } from "../enums/vulnerability-types.ts";
import { EMAIL_MESSAGE, requiredText } from "../schemas/fields.ts";
import {
  CVE_PATTERN,
  PRODUCT_SLUG_PATTERN,
  REPORT_FORM_FIELDS,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  VERSION_PATTERN,
} from "./report-form-values.ts";

// The limits, patterns, messages and field order live apart from the schemas, so the form renders
// them without loading zod (issue 35); the schemas come with the form's first change.
export {
  CVE_PATTERN,
  PRODUCT_SLUG_PATTERN,
  REPORT_FORM_FIELDS,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  VERSION_PATTERN,
} from "./report-form-values.ts";

const maxLength = (max: number, label: string) =>
  z.string().max(max, { error: `${label} must be at most ${max.toLocaleString("en")} characters long.` });

/** A required Markdown field of 30–50,000 characters; `are` for a label in the plural. */
export function markdownField(label: string, verb: "is" | "are" = "is") {
  return requiredText(`${label} ${verb} required.`)
    .min(REPORT_LIMITS.markdownMin, {
      error: `${label} must be at least ${REPORT_LIMITS.markdownMin} characters long.`,
    })
    .max(REPORT_LIMITS.markdownMax, {
      error: `${label} must be at most ${REPORT_LIMITS.markdownMax.toLocaleString("en")} characters long.`,
    });
}

/** An optional Markdown field: blank or missing becomes null. */
function optionalMarkdown(label: string) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .nullish()
    .transform((value) => (value ? value : null))
    .pipe(maxLength(REPORT_LIMITS.markdownMax, label).nullable());
}

/** A version string such as 1.2.3. */
export function versionField(requiredMessage: string) {
  return requiredText(requiredMessage)
    .max(REPORT_LIMITS.versionMax, {
      error: `The version must be at most ${REPORT_LIMITS.versionMax} characters long.`,
    })
    .regex(VERSION_PATTERN, { error: REPORT_MESSAGES.version });
}

/**
 * An optional CVSS 3.1 vector, checked by the domain's parser (whose message says what is wrong);
 * blank or missing becomes null. The server scores it; the form never sends a score.
 */
export const OptionalCvss31Vector = z
  .string({ error: "The CVSS vector must be text." })
  .trim()
  .nullish()
  .transform((value) => (value ? value : null))
  .superRefine((value, context) => {
    if (value === null) return;
    const parsed = parseCvssVector(value);
    if (!parsed.ok) context.addIssue({ code: "custom", message: parsed.error });
    else if (parsed.version !== "3.1") context.addIssue({ code: "custom", message: REPORT_MESSAGES.cvss31 });
  });

export const OptionalCve = z
  .string({ error: REPORT_MESSAGES.cve })
  .trim()
  .nullish()
  .transform((value) => (value ? value.toUpperCase() : null))
  .pipe(z.string().regex(CVE_PATTERN, { error: REPORT_MESSAGES.cve }).nullable());

const reportFields = {
  kind: z.enum(ComponentKind.options, { error: REPORT_MESSAGES.kind }),
  product_slug: requiredText(REPORT_MESSAGES.productSlugRequired)
    .max(REPORT_LIMITS.productSlugMax, {
      error: `The software slug must be at most ${REPORT_LIMITS.productSlugMax} characters long.`,
    })
    .regex(PRODUCT_SLUG_PATTERN, { error: REPORT_MESSAGES.productSlug }),
  product_name: requiredText(REPORT_MESSAGES.productNameRequired).max(REPORT_LIMITS.productNameMax, {
    error: `The software name must be at most ${REPORT_LIMITS.productNameMax} characters long.`,
  }),
  affected_version_prefix: z.enum(VersionPrefix.options, { error: REPORT_MESSAGES.versionPrefix }),
  affected_version: versionField(REPORT_MESSAGES.versionRequired),
  vulnerability_type: VulnerabilityTypeCode,
  owasp_category: OwaspCode,
  required_privilege: WordPressRoleCode,
  title: requiredText(REPORT_MESSAGES.titleRequired)
    .min(REPORT_LIMITS.titleMin, { error: REPORT_MESSAGES.title })
    .max(REPORT_LIMITS.titleMax, { error: REPORT_MESSAGES.title }),
  description: markdownField("The description"),
  steps_to_reproduce: markdownField("The steps to reproduce", "are"),
  proof_of_concept: markdownField("The proof of concept"),
  suggested_fix: optionalMarkdown("The suggested fix"),
  cvss_vector: OptionalCvss31Vector,
};

/**
 * The report form of PRODUCT.md §3 for a signed-in researcher: the e-mail is optional (and ignored,
 * the account's address is used).
 */
export const ReportSubmission = z.object({
  ...reportFields,
  email: z
    .string({ error: EMAIL_MESSAGE })
    .trim()
    .nullish()
    .transform((value) => (value ? value : null))
    .pipe(z.email({ error: EMAIL_MESSAGE }).nullable()),
});
export type ReportSubmission = z.infer<typeof ReportSubmission>;
// The form's field order (report-form-values.ts) names only fields of the submission.
REPORT_FORM_FIELDS satisfies readonly (keyof ReportSubmission)[];
export type ReportSubmissionInput = z.input<typeof ReportSubmission>;

/** The same form for a signed-out reporter: the e-mail is required (PRODUCT.md §3). */
export const SignedOutReportSubmission = z.object({
  ...reportFields,
  email: requiredText(REPORT_MESSAGES.emailRequired)
    .max(254, { error: EMAIL_MESSAGE })
    .pipe(z.email({ error: EMAIL_MESSAGE })),
});
export type SignedOutReportSubmission = z.infer<typeof SignedOutReportSubmission>;

/**
 * What staff set when validating a report (PRODUCT.md §2 "validate"): the classification, the
 * affected and fixed versions, a CVSS 3.1 vector (scored on the server) and an optional CVE id.
 */
export const ReportValidation = z.object({
  vulnerability_type: VulnerabilityTypeCode,
  owasp_category: OwaspCode,
  required_privilege: WordPressRoleCode,
  affected_version_prefix: z.enum(VersionPrefix.options, { error: REPORT_MESSAGES.versionPrefix }),
  affected_version: versionField(REPORT_MESSAGES.versionRequired),
  fixed_version: z
    .string()
    .trim()
    .nullish()
    .transform((value) => (value ? value : null))
    .pipe(
      z
        .string()
        .max(REPORT_LIMITS.versionMax, {
          error: `The version must be at most ${REPORT_LIMITS.versionMax} characters long.`,
        })
        .regex(VERSION_PATTERN, { error: REPORT_MESSAGES.version })
        .nullable(),
    ),
  cvss_vector: OptionalCvss31Vector.pipe(
    z.string({ error: "A CVSS 3.1 vector is required to validate a report." }),
  ),
  cve: OptionalCve,
});
export type ReportValidation = z.infer<typeof ReportValidation>;
