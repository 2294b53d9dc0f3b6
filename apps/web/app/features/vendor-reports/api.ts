import type {
  Page,
  ReportAttachment,
  ReportDetail,
  ReportListItem,
  VendorFix,
  VendorReportTab,
} from "@pressguard/domain";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { pageFromUrl } from "../../lib/api/page.ts";
import type { ApiClient } from "../../lib/api/request.ts";
import type { CommentVisibility } from "../../lib/reports.ts";

export type { Page };

/** The vendor's side of the report API (decision 008), as the vendor pages call it. */

const fileForm = (file: File) => {
  const form = new FormData();
  form.append("file", file);
  return form;
};

/** The e-mailed link's signed token travels with every call of the preview (decision 008). */
const withToken = (token: string | null) => (token ? { token } : undefined);

export const vendorReportsApi = {
  findReports: (client: ApiClient, tab: VendorReportTab, page: number) =>
    client.request<Page<ReportListItem>>("/vendor/reports", { query: { tab, page } }),
  getReport: (client: ApiClient, id: string, token: string | null) =>
    client.request<ReportDetail>(`/reports/${encodeURIComponent(id)}`, { query: withToken(token) }),
  submitFix: (client: ApiClient, id: string, token: string | null, body: z.input<typeof VendorFix>) =>
    client.request<ReportDetail>(`/vendor/reports/${encodeURIComponent(id)}/fix`, {
      method: "POST",
      query: withToken(token),
      body,
    }),
  /** One fix zip (multipart field `file`), while the report awaits a fix. */
  uploadFixFile: (client: ApiClient, id: string, token: string | null, file: File) =>
    client.request<ReportAttachment>(`/reports/${encodeURIComponent(id)}/fix-attachments`, {
      method: "POST",
      query: withToken(token),
      body: fileForm(file),
      retry: 0,
    }),
  /** The PIN contact's fix zip: the preview cookie (scoped to this path) is the credential. */
  uploadPinFixFile: (client: ApiClient, id: string, file: File) =>
    client.request<ReportAttachment>(`/report-previews/${encodeURIComponent(id)}/fix-attachments`, {
      method: "POST",
      body: fileForm(file),
      retry: 0,
    }),
  addComment: (
    client: ApiClient,
    id: string,
    token: string | null,
    body: string,
    visibility: CommentVisibility,
  ) =>
    client.request<ReportDetail>(`/reports/${encodeURIComponent(id)}/comments`, {
      method: "POST",
      query: withToken(token),
      body: { body, visibility },
    }),
};

export const vendorReportKeys = {
  all: ["vendor-reports"] as const,
  lists: () => [...vendorReportKeys.all, "list"] as const,
  list: (tab: VendorReportTab) => [...vendorReportKeys.lists(), tab] as const,
  report: (id: string) => [...vendorReportKeys.all, "report", id] as const,
};

/** Staff move reports between the tabs: fetched again whenever a page opens. */
const FRESH = { staleTime: 0, retry: false } as const;

export function vendorReportListQuery(client: ApiClient, tab: VendorReportTab) {
  return infiniteQueryOptions({
    queryKey: vendorReportKeys.list(tab),
    queryFn: ({ pageParam }) => vendorReportsApi.findReports(client, tab, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<ReportListItem>) => pageFromUrl(last.pagination.next_page_url),
    ...FRESH,
  });
}

export function vendorReportQuery(client: ApiClient, id: string, token: string | null) {
  return queryOptions({
    queryKey: vendorReportKeys.report(id),
    queryFn: () => vendorReportsApi.getReport(client, id, token),
    ...FRESH,
  });
}
