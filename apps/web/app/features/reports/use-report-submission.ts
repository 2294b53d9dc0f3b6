import type { ReportSubmissionRequest, SubmittedReport } from "@pressguard/domain";
import { useNavigate } from "react-router";
import { useApiClient } from "../../lib/api/client.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { reportsApi } from "./api.ts";

/** What /database/preview-email reads from the navigation that brings a signed-out reporter there. */
export interface PreviewEmailState {
  email: string | null;
  title: string;
  accountCreated: boolean;
  magicLinkSent: boolean;
  /** The account has a second factor: it signs in with password and code, never by link. */
  twoFactorRequired: boolean;
}

const REPORT_SUBMITTED_PATH = "/database/report-submitted";
const PREVIEW_EMAIL_PATH = "/database/preview-email";

/**
 * The report form's wiring (PRODUCT.md §3): `POST /api/reports`, then a signed-out reporter goes to
 * /database/preview-email (check your inbox) and a signed-in one to /database/report-submitted.
 */
export function useReportSubmission() {
  const client = useApiClient();
  const navigate = useNavigate();
  const { apiBase } = usePublicConfig();
  return {
    captchaChallengeUrl: `${apiBase.replace(/\/+$/, "")}/captcha/challenge`,
    onSubmit: (body: ReportSubmissionRequest) => reportsApi.submitReport(client, body),
    onSubmitted: (report: SubmittedReport, email: string | null) => {
      if (email) {
        const state: PreviewEmailState = {
          email,
          title: report.title,
          accountCreated: report.account_created,
          magicLinkSent: report.magic_link_sent,
          twoFactorRequired: report.two_factor_required,
        };
        void navigate(PREVIEW_EMAIL_PATH, { state });
      } else {
        void navigate(`${REPORT_SUBMITTED_PATH}?${new URLSearchParams({ report: report.id })}`);
      }
    },
  };
}
