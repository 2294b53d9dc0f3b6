import {
  fixUrlField,
  REPORT_ATTACHMENT_KINDS,
  ReportState,
  ResearcherReportTab,
  VendorReportTab,
} from "@pressguard/domain";
import { z } from "zod";
import { PageQuery, Pagination } from "../vulnerabilities/schemas.ts";

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

export const SubmittedReport = z
  .object({
    id: z.string(),
    status: ReportState,
    title: z.string(),
    created_at: z.string(),
    /** A signed-out reporter: whether an account was created for the e-mail (else one was linked). */
    account_created: z.boolean(),
    /** A signed-out reporter: a sign-in link went to the e-mail (PRODUCT.md §3 → /database/preview-email). */
    magic_link_sent: z.boolean(),
    /** A signed-out reporter whose account has a second factor: no link; they sign in with password and code. */
    two_factor_required: z.boolean(),
    /**
     * Attaches files to this report for 30 minutes (`POST /reports/{id}/attachments?token=`), so the
     * form uploads them right after submitting, signed out too. It reads nothing.
     */
    upload_token: z.string(),
  })
  .meta({ id: "SubmittedReport" });
export type SubmittedReport = z.infer<typeof SubmittedReport>;

const ProductOfReport = z.object({
  id: z.number().int(),
  platform: z.string(),
  kind: z.string(),
  slug: z.string(),
  name: z.string(),
  is_lobby_product: z.boolean(),
  has_active_program: z.boolean(),
});

export const ReportListItem = z
  .object({
    id: z.string(),
    status: ReportState,
    title: z.string(),
    product: z.object({ platform: z.string(), kind: z.string(), slug: z.string(), name: z.string() }),
    vulnerability_type: z.number().int().nullable(),
    severity: z.string().nullable(),
    fix_deadline_at: z.string().nullable(),
    /** When the deadline job flagged it: the fix deadline passed while awaiting a fix. */
    deadline_passed_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Staff only: an open or published report on the same product with the same type. */
    possible_duplicate_of: z.string().nullable().optional(),
  })
  .meta({ id: "ReportListItem" });
export type ReportListItem = z.infer<typeof ReportListItem>;

export const ReportPage = z
  .object({ data: z.array(ReportListItem), pagination: Pagination })
  .meta({ id: "ReportPage" });
export type ReportPage = z.infer<typeof ReportPage>;

export const ReportEvent = z.object({
  action: z.string(),
  from_state: z.string().nullable(),
  to_state: z.string(),
  note: z.string().nullable(),
  /** Staff only: who acted. */
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable().optional(),
  created_at: z.string(),
});

export const ReportComment = z.object({
  id: z.number().int(),
  body: z.string(),
  visibility: z.enum(["staff", "vendor_researcher"]),
  author: z.object({ name: z.string() }).nullable(),
  created_at: z.string(),
});

/**
 * A file of a report: the proof of concept, or a fix zip from the vendor's side; downloaded from
 * `/reports/{id}/attachments/{attachment id}`.
 */
export const ReportAttachment = z
  .object({
    id: z.string(),
    kind: z.enum(REPORT_ATTACHMENT_KINDS),
    filename: z.string(),
    /** As the uploader declared it; the download is always application/octet-stream. */
    content_type: z.string(),
    size: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "ReportAttachment" });
export type ReportAttachment = z.infer<typeof ReportAttachment>;

export const AttachmentParams = z.object({ id: z.string(), attachmentId: z.string() });

export const ReportDetail = z
  .object({
    id: z.string(),
    status: ReportState,
    title: z.string(),
    product: ProductOfReport,
    researcher: z.object({ uuid: z.string(), display_name: z.string() }).nullable(),
    affected_version_prefix: z.string().nullable(),
    affected_version: z.string().nullable(),
    vulnerability_type: z.number().int().nullable(),
    owasp_category: z.number().int().nullable(),
    required_privilege: z.number().int().nullable(),
    description: z.string().nullable(),
    steps_to_reproduce: z.string().nullable(),
    proof_of_concept: z.string().nullable(),
    suggested_fix: z.string().nullable(),
    reported_cvss_vector: z.string().nullable(),
    cvss_vector: z.string().nullable(),
    cvss_score: z.number().nullable(),
    severity: z.string().nullable(),
    cve: z.string().nullable(),
    fixed_version: z.string().nullable(),
    /** The link given with the fix (http or https only). */
    fix_url: z.string().nullable(),
    /** The patch a PIN contact attached to their fix (not shown to the researcher). */
    fix_diff: z.string().nullable().optional(),
    rejection_reason: z.string().nullable(),
    vendor_notified_at: z.string().nullable(),
    fix_deadline_at: z.string().nullable(),
    deadline_passed_at: z.string().nullable(),
    fixed_at: z.string().nullable(),
    validated_at: z.string().nullable(),
    published_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    /** The public vulnerability page once published. */
    public_path: z.string().nullable(),
    /** What the caller may do next (the domain's TRANSITIONS for the caller's role). */
    actions: z.array(z.string()),
    attachments: z.array(ReportAttachment),
    timeline: z.array(ReportEvent),
    comments: z.array(ReportComment),
    /** Staff only. */
    reporter_email: z.string().nullable().optional(),
    possible_duplicate_of: z.string().nullable().optional(),
  })
  .meta({ id: "ReportDetail" });
export type ReportDetail = z.infer<typeof ReportDetail>;

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

export const PinAccepted = z
  .object({
    /** When the preview credential (an HttpOnly cookie scoped to this report's API path) expires. */
    expires_at: z.string(),
  })
  .meta({ id: "ReportPinAccepted" });

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
