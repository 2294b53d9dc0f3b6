import {
  PageQuery,
  ReportState,
  ReportSubmissionBody,
  ReportTransitionBody,
  ResearcherReportTab,
  VendorReportTab,
} from "@pressguard/domain";
import { z } from "zod";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";

/** The report API (issue 7, decision 008). */

export const ReportIdParams = z.object({ id: z.string() });

/** `?token=`: the signed preview token of an e-mail link (decision 008). */
export const ReportReadQuery = z.object({ token: z.string().optional() });

/**
 * Checked in the service by the caller's schema (signed in: ReportSubmissionBody; signed out:
 * SignedOutReportSubmissionBody and the captcha), so that a signed-out body missing several fields is
 * told of its e-mail and captcha with the rest. The document shows the signed-in body.
 */
export const SubmissionBody = bodyCheckedByService(ReportSubmissionBody, {
  id: "ReportSubmissionBody",
  description:
    "The report form (PRODUCT.md §3). Signed out, `email` and `captcha` are required; signed in, `email` is ignored.",
});

export const AttachmentParams = z.object({ id: z.string(), attachmentId: z.string() });

export const ResearcherReportsQuery = PageQuery.extend({ tab: ResearcherReportTab.default("in-review") });
export const VendorReportsQuery = PageQuery.extend({ tab: VendorReportTab.default("awaiting_fix") });
export const StaffReportsQuery = PageQuery.extend({
  status: ReportState.optional(),
  /** `true`: only reports whose fix deadline passed while awaiting a fix (flagged by the deadline job). */
  deadline_passed: z.enum(["true", "false"], { error: "deadline_passed must be true or false." }).optional(),
  /**
   * `true`: only validated reports nobody can be told of yet: no active program and no contact e-mail
   * for their product (issue 19); staff find an address for each.
   */
  no_vendor_contact: z
    .enum(["true", "false"], { error: "no_vendor_contact must be true or false." })
    .optional(),
  /** `true`: only reports whose researcher asked for a CVE id that staff have not recorded yet. */
  cve_requested: z.enum(["true", "false"], { error: "cve_requested must be true or false." }).optional(),
});

/** Checked by the route: an unknown action or a field its action lacks is a 422 before the service. */
export const TransitionBody = ReportTransitionBody.meta({
  id: "ReportTransitionBody",
  description:
    "`action` (a lifecycle action), optional `note`; `reason` (and a duplicate's id) to reject; the ReportValidation fields to validate.",
});
