import type { ResearcherReportTab } from "@pressguard/domain";
import { pageFromUrl } from "../../lib/api/page.ts";
import type { ApiClient } from "../../lib/api/request.ts";
import type {
  KnownVulnerability,
  Page,
  ProductOption,
  ReportDetail,
  ReportListItem,
  SubmittedReport,
} from "./types.ts";

export { pageFromUrl };

/** The report calls of decision 008, and the product search the form picks a product with. */
export const reportsApi = {
  /** Signed out, the body carries `email` and `captcha` (the ALTCHA payload) too. */
  submitReport: (client: ApiClient, body: Record<string, unknown>) =>
    client.request<SubmittedReport>("/reports", { method: "POST", body }),
  /** `token`: the signed preview link's token, when the page was opened from one. */
  getReport: (client: ApiClient, id: string, token?: string | null) =>
    client.request<ReportDetail>(`/reports/${encodeURIComponent(id)}`, {
      query: { token: token || undefined },
    }),
  addComment: (client: ApiClient, id: string, body: string, token?: string | null) =>
    client.request<ReportDetail>(`/reports/${encodeURIComponent(id)}/comments`, {
      method: "POST",
      body: { body },
      query: { token: token || undefined },
    }),
  findResearcherReports: (client: ApiClient, tab: ResearcherReportTab, page: number) =>
    client.request<Page<ReportListItem>>("/researcher/reports", { query: { tab, page } }),
  findProducts: (client: ApiClient, q: string, kind: string, signal?: AbortSignal) =>
    client.request<Page<ProductOption>>("/v1/products", {
      query: { q: q || undefined, kind: kind || undefined, per_page: 8 },
      retry: 0,
      ...(signal && { signal }),
    }),
  /** A product's known vulnerabilities, unpatched ("present") or fixed: offered before reporting. */
  findKnownVulnerabilities: (client: ApiClient, productId: number, tab: "present" | "fixed") =>
    client.request<Page<KnownVulnerability>>(`/products/${productId}/vulnerabilities`, {
      query: { "filter[tab]": tab, per_page: 5 },
      retry: 0,
    }),
};
