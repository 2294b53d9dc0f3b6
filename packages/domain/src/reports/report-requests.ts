import { z } from "zod";
import { fixUrlField } from "./fix-submission.ts";
import { REJECTION_REASONS, RejectionReason, ReportAction } from "./lifecycle.ts";
import { type ReportValidation, versionField } from "./report-form.ts";

/**
 * The bodies of the report calls that a web form sends as they are (issue 16): the API route
 * declares each one, and the form checks its fields with it, so both give the same messages.
 */

const FixedVersion = versionField("The fixed version is required.");

/** `POST /vendor/reports/{id}/fix`: the vendor's fix (decision 008). */
export const VendorFix = z.object({
  fixed_version: FixedVersion,
  notes: z
    .string()
    .trim()
    .max(10_000, { error: "The notes must be at most 10,000 characters long." })
    .optional(),
  fix_url: fixUrlField(),
});
export type VendorFix = z.infer<typeof VendorFix>;

/**
 * The HttpOnly credential the right PIN sets (decision 008): scoped to the report's preview API, and a
 * copy, set by the PIN page, to the report's pages, whose server render sends it on to the API.
 */
export const PIN_PREVIEW_COOKIE = "pressguard_report_preview";

/** `POST /report-previews/{id}/pin` (PRODUCT.md §2): the 6 digits of the PIN e-mail. */
export const ReportPin = z.object({
  pin: z
    .string({ error: "Enter the 6-digit PIN from the e-mail." })
    .trim()
    .regex(/^[0-9]{6}$/, { error: "Enter the 6-digit PIN from the e-mail." }),
});

/** `POST /report-previews/{id}/patch`: the PIN contact's fix, with notes and optionally a unified diff. */
export const PinPatch = z.object({
  fixed_version: FixedVersion,
  notes: z
    .string({ error: "The notes must be text." })
    .trim()
    .min(1, { error: "Tell us what the fix changes." })
    .max(10_000, { error: "The notes must be at most 10,000 characters long." }),
  diff: z
    .string({ error: "The diff must be text." })
    .max(200_000, { error: "The diff must be at most 200,000 characters long." })
    .optional()
    .transform((value) => (value?.trim() ? value : undefined)),
  fix_url: fixUrlField(),
});
export type PinPatch = z.infer<typeof PinPatch>;

/** `POST /reports/{id}/comments` and the PIN preview's comments: one Markdown comment. */
export const CommentSubmission = z.object({
  body: z
    .string({ error: "The comment is required." })
    .trim()
    .min(1, { error: "The comment is required." })
    .max(20_000, { error: "The comment must be at most 20,000 characters long." }),
  visibility: z
    .enum(["staff", "vendor_researcher"], { error: "visibility must be staff or vendor_researcher." })
    .default("vendor_researcher"),
});

const REJECTION_REASON_CHOSEN = "Choose why the report is rejected.";

/**
 * The `reject` transition's own field (PRODUCT.md §2). A reason left unchosen in the form (an empty
 * value) is asked for in words; a missing or unknown one gets the enumeration's message.
 */
export const ReportRejection = z.object({
  reason: z.enum(RejectionReason.options, {
    error: (issue) =>
      issue.input === ""
        ? REJECTION_REASON_CHOSEN
        : `reason must be one of ${REJECTION_REASONS.map((reason) => reason.value).join(", ")}.`,
  }),
  /** With reason `duplicate` (issue 19): the published record or the report it duplicates, at most one. */
  duplicate_of_vulnerability_id: z.guid({ error: "Choose a known vulnerability." }).nullish(),
  duplicate_of_report_id: z.guid({ error: "Choose a report." }).nullish(),
});
export type ReportRejection = z.infer<typeof ReportRejection>;

/**
 * `POST /staff/reports/{id}/transitions`: every action's `action` and optional `note`. The fields
 * of `validate` (ReportValidation) and `reject` (ReportRejection) are checked after it, by action,
 * so that a missing field is named in the action's own words.
 */
export const ReportTransitionHead = z.object({
  action: ReportAction,
  note: z
    .string({ error: "The note must be text." })
    .trim()
    .max(10_000, { error: "The note must be at most 10,000 characters long." })
    .nullish()
    .transform((value) => (value ? value : null)),
});

/** The body of a transition as a client sends it: the head, and the fields of its action. */
export type ReportTransitionRequest = z.input<typeof ReportTransitionHead> &
  (Partial<z.input<typeof ReportValidation>> | Partial<z.input<typeof ReportRejection>>);
