import {
  fixUrlField,
  PageQuery,
  ReportState,
  ResearcherReportTab,
  VendorReportTab,
} from "@pressguard/domain";
import { z } from "zod";

/** The report API (issue 7, decision 008). */

export const ReportIdParams = z.object({ id: z.string() });

/** `?token=`: the signed preview token of an e-mail link (decision 008). */
export const ReportReadQuery = z.object({ token: z.string().optional() });

/** The form's fields are checked by the domain schemas in the service, whose rules depend on the caller. */
export const ReportSubmissionBody = z.record(z.string(), z.unknown()).meta({
  id: "ReportSubmissionBody",
  description:
    "The fields of the domain's ReportSubmission (PRODUCT.md §3); signed out: `email` and `captcha` (the ALTCHA payload, or the reCAPTCHA token) too.",
});

export const AttachmentParams = z.object({ id: z.string(), attachmentId: z.string() });

export const ResearcherReportsQuery = PageQuery.extend({ tab: ResearcherReportTab.default("in-review") });
export const VendorReportsQuery = PageQuery.extend({ tab: VendorReportTab.default("awaiting_fix") });
export const StaffReportsQuery = PageQuery.extend({
  status: ReportState.optional(),
  /** `true`: only reports whose fix deadline passed while awaiting a fix (flagged by the deadline job). */
  deadline_passed: z.enum(["true", "false"], { error: "deadline_passed must be true or false." }).optional(),
});

/** Checked per action in the service (validate and reject need their own fields). */
export const TransitionBody = z.record(z.string(), z.unknown()).meta({
  id: "ReportTransitionBody",
  description:
    "`action` (a lifecycle action), optional `note`; `reason` to reject; the ReportValidation fields to validate.",
});

export const VendorFixBody = z.object({
  fixed_version: z
    .string({ error: "The fixed version is required." })
    .trim()
    .min(1, { error: "The fixed version is required." })
    .max(64, { error: "The version must be at most 64 characters long." })
    .regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/, {
      error: "The version may contain only letters, digits, dots, plus signs, hyphens and underscores.",
    }),
  notes: z
    .string()
    .trim()
    .max(10_000, { error: "The notes must be at most 10,000 characters long." })
    .optional(),
  fix_url: fixUrlField(),
});

const FixedVersion = z
  .string({ error: "The fixed version is required." })
  .trim()
  .min(1, { error: "The fixed version is required." })
  .max(64, { error: "The version must be at most 64 characters long." })
  .regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/, {
    error: "The version may contain only letters, digits, dots, plus signs, hyphens and underscores.",
  });

/** The PIN page (PRODUCT.md §2): the 6 digits of the PIN e-mail. */
export const PinBody = z.object({
  pin: z
    .string({ error: "Enter the 6-digit PIN from the e-mail." })
    .trim()
    .regex(/^[0-9]{6}$/, { error: "Enter the 6-digit PIN from the e-mail." }),
});

/** The PIN contact's patch: the fixed version, notes and optionally a unified diff. */
export const PinPatchBody = z.object({
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
export type PinPatchBody = z.infer<typeof PinPatchBody>;

export const CommentBody = z.object({
  body: z
    .string({ error: "The comment is required." })
    .trim()
    .min(1, { error: "The comment is required." })
    .max(20_000, { error: "The comment must be at most 20,000 characters long." }),
  visibility: z
    .enum(["staff", "vendor_researcher"], { error: "visibility must be staff or vendor_researcher." })
    .default("vendor_researcher"),
});
