import { z } from "zod";
import { fixUrlField } from "./fix-submission.ts";
import { REJECTION_REASONS, REPORT_ACTION_MESSAGE, RejectionReason, ReportAction } from "./lifecycle.ts";
import {
  ReportSubmission,
  ReportValidation,
  SignedOutReportSubmission,
  versionField,
} from "./report-form.ts";

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

/** A transition's note for the timeline: every action may carry one. */
const TransitionNote = z
  .string({ error: "The note must be text." })
  .trim()
  .max(10_000, { error: "The note must be at most 10,000 characters long." })
  .nullish()
  .transform((value) => (value ? value : null));

/** The actions whose body is the action and its note only: all but `reject` and `validate`. */
export const NoteOnlyReportAction = ReportAction.exclude(["reject", "validate"]);
export type NoteOnlyReportAction = z.infer<typeof NoteOnlyReportAction>;

/**
 * `POST /staff/reports/{id}/transitions` (PRODUCT.md §2), a union on `action`: `reject` carries its
 * reason (ReportRejection), `validate` the classification (ReportValidation), every other action its
 * note only. An unknown or missing action is answered in ReportAction's words, a missing field in its
 * action's own, and all of a body's wrong fields at once.
 */
export const ReportTransitionBody = z.discriminatedUnion(
  "action",
  [
    z.object({ action: NoteOnlyReportAction, note: TransitionNote }),
    z.object({ action: z.literal("reject"), note: TransitionNote, ...ReportRejection.shape }),
    z.object({ action: z.literal("validate"), note: TransitionNote, ...ReportValidation.shape }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? REPORT_ACTION_MESSAGE : undefined) },
);
export type ReportTransitionBody = z.infer<typeof ReportTransitionBody>;
/** The body of a transition as a client sends it. */
export type ReportTransitionRequest = z.input<typeof ReportTransitionBody>;

/** What `POST /reports` carries besides the form's fields (decision 008). */
const submissionExtras = {
  captcha: z.string().optional().describe("Signed out: the ALTCHA payload, or the reCAPTCHA token."),
  embed_key: z
    .string()
    .optional()
    // A key that is not text is unknown like any other: answered 404, as an unknown key is. The
    // document shows no default for it: a missing key is a report from no embed.
    .catch("")
    .meta({
      description:
        "From a vendor's embedded form: the vendor's public key, which limits the report to its programs.",
      default: undefined,
    }),
};

/** `POST /reports` signed in (PRODUCT.md §3): the form, whose e-mail is ignored, and the extras. */
export const ReportSubmissionBody = ReportSubmission.extend(submissionExtras);
export type ReportSubmissionBody = z.infer<typeof ReportSubmissionBody>;

/**
 * `POST /reports` signed out: the e-mail is required, and so is the captcha when the server asks for
 * one (the server's captcha mode decides; the reports service adds that rule).
 */
export const SignedOutReportSubmissionBody = SignedOutReportSubmission.extend(submissionExtras);
export type SignedOutReportSubmissionBody = z.infer<typeof SignedOutReportSubmissionBody>;

/** The body of a report as a client sends it, signed in or signed out. */
export type ReportSubmissionRequest =
  | z.input<typeof ReportSubmissionBody>
  | z.input<typeof SignedOutReportSubmissionBody>;
