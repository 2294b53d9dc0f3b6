import type {
  Page,
  ProductSearchItem,
  ReportAttachment,
  ReportDetail,
  ReportSubmissionRequest,
  SubmittedReport,
  VulnerabilitySummary,
} from "@pressguard/domain";
import { pageFromUrl } from "../../lib/api/page.ts";
import { type ApiClient, IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from "../../lib/api/request.ts";

export { pageFromUrl };

/** The report calls of decision 008, and the product search the form picks a product with. */
export const reportsApi = {
  /**
   * Signed out, the body carries `email` and `captcha` (the ALTCHA payload) too. Each submission has
   * an Idempotency-Key of its own, which the wrapper's retries resend: a retry after a lost answer
   * gets the report filed by the first attempt, never a second one.
   */
  submitReport: (client: ApiClient, body: ReportSubmissionRequest) =>
    client.request<SubmittedReport>("/reports", {
      method: "POST",
      body,
      headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() },
    }),
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
      headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() },
    }),
  /**
   * One proof-of-concept file of a new report (multipart field `file`), with the report's upload
   * token: the form attaches right after submitting, signed in or out. Its Idempotency-Key lets the
   * wrapper send it again after a lost answer without storing the file twice.
   */
  uploadAttachment: (client: ApiClient, id: string, file: File, uploadToken: string) => {
    const form = new FormData();
    form.append("file", file);
    return client.request<ReportAttachment>(`/reports/${encodeURIComponent(id)}/attachments`, {
      method: "POST",
      body: form,
      query: { token: uploadToken },
      headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() },
    });
  },
  /** The researcher asks staff for a CVE id (issue 19); asking again keeps the first request. */
  requestCve: (client: ApiClient, id: string) =>
    client.request<ReportDetail>(`/reports/${encodeURIComponent(id)}/cve-request`, { method: "POST" }),
  /** The PIN contact's comment: the preview cookie (scoped to this path) is the credential. */
  addPinComment: (client: ApiClient, id: string, body: string) =>
    client.request<ReportDetail>(`/report-previews/${encodeURIComponent(id)}/comments`, {
      method: "POST",
      body: { body },
      headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() },
    }),
  findProducts: (client: ApiClient, q: string, kind: string, signal?: AbortSignal) =>
    client.request<Page<ProductSearchItem>>("/v1/products", {
      query: { q: q || undefined, kind: kind || undefined, per_page: 8 },
      retry: 0,
      ...(signal && { signal }),
    }),
  /** A product's known vulnerabilities, unpatched ("present") or fixed: offered before reporting. */
  findKnownVulnerabilities: (client: ApiClient, productId: number, tab: "present" | "fixed") =>
    client.request<Page<VulnerabilitySummary>>(`/products/${productId}/vulnerabilities`, {
      query: { "filter[tab]": tab, per_page: 5 },
      retry: 0,
    }),
};
