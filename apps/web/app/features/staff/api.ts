import type {
  ClaimStatus,
  DecisionTaken,
  DuplicateCandidates,
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

/** The queue's lists across states of reports waiting on staff (their API flags have the same names). */
export const WAITING_VIEWS = ["no_vendor_contact", "deadline_passed", "cve_requested"] as const;
export type WaitingView = (typeof WAITING_VIEWS)[number];
/** What the queue shows: one state, every state (null), or a waiting list. */
export type QueueView = ReportState | WaitingView | null;
export const isWaitingView = (view: QueueView): view is WaitingView =>
  (WAITING_VIEWS as readonly (string | null)[]).includes(view);

/** The staff API (decisions 006 and 008), as the triage pages call it. */

export const staffApi = {
  findReports: (client: ApiClient, view: QueueView, page: number) =>
    client.request<Page<ReportListItem>>("/staff/reports", {
      query: isWaitingView(view) ? { [view]: "true", page } : { status: view ?? undefined, page },
    }),
  getReport: (client: ApiClient, id: string) =>
    client.request<ReportDetail>(`/staff/reports/${encodeURIComponent(id)}`),
  /** The report's possible originals among the product's records and reports (issue 19). */
  getDuplicateCandidates: (client: ApiClient, id: string) =>
    client.request<DuplicateCandidates>(`/staff/reports/${encodeURIComponent(id)}/duplicate-candidates`),
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
  /** Records the CVE id reserved for a report, or removes it with null (issue 19). */
  setReportCve: (client: ApiClient, id: string, cve: string | null) =>
    client.request<ReportDetail>(`/staff/reports/${encodeURIComponent(id)}/cve`, {
      method: "PUT",
      body: { cve },
    }),
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
  reportList: (view: QueueView) => [...staffKeys.reportLists(), view ?? "all"] as const,
  report: (id: string) => [...staffKeys.all, "report", id] as const,
  duplicateCandidates: (id: string) => [...staffKeys.all, "duplicate-candidates", id] as const,
  claims: (status: ClaimStatus) => [...staffKeys.all, "claims", status] as const,
  productContact: (productId: number) => [...staffKeys.all, "product-contact", productId] as const,
};

/** The queue moves under staff's feet (new reports, other staff): refetched when the page is opened again. */
const FRESH = { staleTime: 0, retry: false } as const;

export function staffReportListQuery(client: ApiClient, status: QueueView) {
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

export function duplicateCandidatesQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: staffKeys.duplicateCandidates(id),
    queryFn: () => staffApi.getDuplicateCandidates(client, id),
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
