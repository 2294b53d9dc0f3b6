import { z } from "zod";
import { REPORT_ATTACHMENT_KINDS } from "../reports/attachment-rules.ts";
import { ReportState } from "../reports/lifecycle.ts";
import { DuplicateOf } from "./duplicates.ts";
import { Pagination } from "./pagination.ts";

/** The report API's answers (decision 008): the server serialises with these, the web reads their types. */

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
    /** A rejected report's reason (a REJECTION_REASONS value); null otherwise. */
    rejection_reason: z.string().nullable(),
    /** The CVE id staff recorded, and when the researcher asked for one (issue 19). */
    cve: z.string().nullable(),
    cve_requested_at: z.string().nullable(),
    /** Staff only: an open or published report on the same product with the same type. */
    possible_duplicate_of: z.string().nullable().optional(),
  })
  .meta({ id: "ReportListItem" });
export type ReportListItem = z.infer<typeof ReportListItem>;

export const ReportPage = z
  .object({ data: z.array(ReportListItem), pagination: Pagination })
  .meta({ id: "ReportPage" });
export type ReportPage = z.infer<typeof ReportPage>;

/** An e-mailed link's token exchanged for a grant of the same audience (issue 15, decision 021). */
export const LinkGrant = z
  .object({
    token: z.string(),
    audience: z.enum(["vendor", "researcher"]),
    expires_at: z.string(),
  })
  .meta({ id: "LinkGrant" });
export type LinkGrant = z.infer<typeof LinkGrant>;

export const ReportEvent = z.object({
  action: z.string(),
  from_state: z.string().nullable(),
  to_state: z.string(),
  note: z.string().nullable(),
  /** Staff only: who acted. */
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable().optional(),
  created_at: z.string(),
});
export type ReportEvent = z.infer<typeof ReportEvent>;

export const ReportComment = z.object({
  id: z.number().int(),
  body: z.string(),
  visibility: z.enum(["staff", "vendor_researcher"]),
  author: z.object({ name: z.string() }).nullable(),
  created_at: z.string(),
});
export type ReportComment = z.infer<typeof ReportComment>;

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
    /** When the researcher asked staff for a CVE id (POST /reports/{id}/cve-request); null if never. */
    cve_requested_at: z.string().nullable(),
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
    /** Rejected as a duplicate: what it duplicates (issue 19); null otherwise. */
    duplicate_of: DuplicateOf.nullable(),
    /** Staff only. */
    reporter_email: z.string().nullable().optional(),
    possible_duplicate_of: z.string().nullable().optional(),
    /** Staff only: the best published-record candidate found on submission. */
    possible_duplicate_of_vulnerability_id: z.string().nullable().optional(),
  })
  .meta({ id: "ReportDetail" });
export type ReportDetail = z.infer<typeof ReportDetail>;

export const PinAccepted = z
  .object({
    /** When the preview credential (an HttpOnly cookie scoped to this report's API path) expires. */
    expires_at: z.string(),
  })
  .meta({ id: "ReportPinAccepted" });
export type PinAccepted = z.infer<typeof PinAccepted>;
