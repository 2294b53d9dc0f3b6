import type {
  ClaimStatus,
  DecisionTaken,
  Page,
  ProductClaim,
  ProductContact,
  ReportDetail,
  ReportListItem,
  ReportState,
  ReportTransitionRequest,
} from "@pressguard/domain";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { pageFromUrl } from "../../lib/api/page.ts";
import type { ApiClient } from "../../lib/api/request.ts";
import type { CommentVisibility } from "../../lib/reports.ts";

export type { Page };

/** The staff API (decisions 006 and 008), as the triage pages call it. */

export const staffApi = {
  findReports: (client: ApiClient, status: ReportState | null, page: number) =>
    client.request<Page<ReportListItem>>("/staff/reports", {
      query: { status: status ?? undefined, page },
    }),
  getReport: (client: ApiClient, id: string) =>
    client.request<ReportDetail>(`/staff/reports/${encodeURIComponent(id)}`),
  transition: (client: ApiClient, id: string, body: ReportTransitionRequest) =>
    client.request<ReportDetail>(`/staff/reports/${encodeURIComponent(id)}/transitions`, {
      method: "POST",
      body,
    }),
  addComment: (client: ApiClient, id: string, body: string, visibility: CommentVisibility) =>
    client.request<ReportDetail>(`/reports/${encodeURIComponent(id)}/comments`, {
      method: "POST",
      body: { body, visibility },
    }),
  findClaims: (client: ApiClient, status: ClaimStatus, page: number) =>
    client.request<Page<ProductClaim>>("/staff/product-claims", { query: { status, page } }),
  approveClaim: (client: ApiClient, id: number) =>
    client.request<DecisionTaken>(`/staff/product-claims/${id}/approve`, { method: "POST" }),
  getProductContact: (client: ApiClient, productId: number) =>
    client.request<ProductContact>(`/staff/products/${productId}/contact`),
  setProductContact: (client: ApiClient, productId: number, email: string) =>
    client.request<ProductContact>(`/staff/products/${productId}/contact`, {
      method: "PUT",
      body: { email },
    }),
  rejectClaim: (client: ApiClient, id: number, reason: string) =>
    client.request<DecisionTaken>(`/staff/product-claims/${id}/reject`, {
      method: "POST",
      body: { reason },
    }),
};

export const staffKeys = {
  all: ["staff"] as const,
  reportLists: () => [...staffKeys.all, "reports"] as const,
  reportList: (status: ReportState | null) => [...staffKeys.reportLists(), status ?? "all"] as const,
  report: (id: string) => [...staffKeys.all, "report", id] as const,
  claims: (status: ClaimStatus) => [...staffKeys.all, "claims", status] as const,
  productContact: (productId: number) => [...staffKeys.all, "product-contact", productId] as const,
};

/** The queue moves under staff's feet (new reports, other staff): refetched when the page is opened again. */
const FRESH = { staleTime: 0, retry: false } as const;

export function staffReportListQuery(client: ApiClient, status: ReportState | null) {
  return infiniteQueryOptions({
    queryKey: staffKeys.reportList(status),
    queryFn: ({ pageParam }) => staffApi.findReports(client, status, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<ReportListItem>) => pageFromUrl(last.pagination.next_page_url),
    ...FRESH,
  });
}

export function staffReportQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: staffKeys.report(id),
    queryFn: () => staffApi.getReport(client, id),
    ...FRESH,
  });
}

export function claimListQuery(client: ApiClient, status: ClaimStatus) {
  return infiniteQueryOptions({
    queryKey: staffKeys.claims(status),
    queryFn: ({ pageParam }) => staffApi.findClaims(client, status, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<ProductClaim>) => pageFromUrl(last.pagination.next_page_url),
    ...FRESH,
  });
}

export function productContactQuery(client: ApiClient, productId: number) {
  return queryOptions({
    queryKey: staffKeys.productContact(productId),
    queryFn: () => staffApi.getProductContact(client, productId),
    ...FRESH,
  });
}
