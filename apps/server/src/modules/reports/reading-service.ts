import {
  RESEARCHER_REPORT_TABS,
  type ReportDetail,
  type ReportPage,
  type ReportState,
  type ResearcherReportTab,
  VENDOR_REPORT_TABS,
  type VendorReportTab,
} from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { RequestAuth } from "../../http/access.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import type { ReportContext } from "./report-context.ts";
import { listItemOf } from "./report-views.ts";

/** The triage queue's filters: a state, and the reports waiting on something (all of them given). */
export interface StaffReportFilter {
  status?: ReportState | undefined;
  /** Flagged by the deadline job, still awaiting a fix. */
  deadlinePassed?: boolean;
  /** Validated, and nobody to tell: no active program, no contact e-mail (issue 19). */
  noVendorContact?: boolean;
  /** The researcher asked for a CVE id that staff have not recorded yet (issue 19). */
  cveRequested?: boolean;
}

/** Reading reports: one report as its reader sees it, and the lists of researcher, vendor and staff. */
export function createReadingService({ queries, requireReport, requireReader, detailFor }: ReportContext) {
  async function page(
    filter: Parameters<typeof queries.listReports>[0],
    request: PageRequest,
    staff = false,
  ): Promise<ReportPage> {
    const offset = (request.page - 1) * request.perPage;
    const { rows, total } = await queries.listReports(filter, request.perPage, offset);
    return {
      data: rows.map((row) => listItemOf(row, staff)),
      pagination: paginationOf(request.path, request.query, request.page, request.perPage, total),
    };
  }

  return {
    /**
     * GET /reports/{id}: the researcher who reported it, staff, or the owning vendor from validation on;
     * or anyone holding a preview link's token for this report, who reads as its audience (no actions).
     * Signed out without a token: 401. A token of another report, expired or forged: 404.
     */
    async getReport(auth: RequestAuth | null, id: string, token?: string): Promise<ReportDetail> {
      const { row, viewer, actor } = await requireReader(auth, id, token);
      return detailFor(row, viewer, actor);
    },

    async listResearcherReports(
      auth: RequestAuth,
      tab: ResearcherReportTab,
      request: PageRequest,
    ): Promise<ReportPage> {
      // The access level guarantees a researcher profile.
      const researcherId = await queries.researcherIdOf(auth.user.id);
      if (researcherId === null) throw new AppError("forbidden");
      return page({ researcherId, statuses: RESEARCHER_REPORT_TABS[tab] }, request);
    },

    async listVendorReports(
      auth: RequestAuth,
      tab: VendorReportTab,
      request: PageRequest,
    ): Promise<ReportPage> {
      if (!auth.user.vendor) throw new AppError("forbidden");
      return page({ vendorId: auth.user.vendor.id, statuses: VENDOR_REPORT_TABS[tab] }, request);
    },

    async listStaffReports(filter: StaffReportFilter, request: PageRequest): Promise<ReportPage> {
      const { status, ...flags } = filter;
      return page({ ...(status && { statuses: [status] }), ...flags }, request, true);
    },

    async getStaffReport(id: string): Promise<ReportDetail> {
      return detailFor(await requireReport(id), "staff");
    },
  };
}
