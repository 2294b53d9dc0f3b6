import type { ReportAttachmentKind, ReportState } from "@pressguard/domain";

import type { Page, Pagination } from "../../lib/api/page.ts";

export type { Page, Pagination };

/**
 * The report API's answers as the pages read them (decision 008 is the contract; the web app keeps
 * its own view of it, as any API client would).
 */

/** `POST /api/reports` → 201. */
export interface SubmittedReport {
  id: string;
  status: ReportState;
  title: string;
  created_at: string;
  /** Signed out: an account was created for the e-mail (otherwise an existing one was linked). */
  account_created: boolean;
  /** Signed out: a sign-in link went to the e-mail. */
  magic_link_sent: boolean;
  /** Signed out, to an account with a second factor: no link; sign in with password and code. */
  two_factor_required: boolean;
  /** Attaches the form's files to this report for 30 minutes (as `?token=`). */
  upload_token: string;
}

/** One row of `GET /api/researcher/reports` (and the vendor and staff lists). */
export interface ReportListItem {
  id: string;
  status: ReportState;
  title: string;
  product: { platform: string; kind: string; slug: string; name: string };
  vulnerability_type: number | null;
  severity: string | null;
  fix_deadline_at: string | null;
  created_at: string;
  updated_at: string;
  possible_duplicate_of?: string | null;
}

export interface ReportEvent {
  action: string;
  from_state: string | null;
  to_state: string;
  note: string | null;
  /** Staff only: who acted. */
  actor?: { id: number; name: string } | null;
  created_at: string;
}

export interface ReportComment {
  id: number;
  body: string;
  visibility: "staff" | "vendor_researcher";
  author: { name: string } | null;
  created_at: string;
}

/** A file of a report (proof of concept, or the vendor's fix zip); downloaded, never opened in the page. */
export interface ReportAttachment {
  id: string;
  kind: ReportAttachmentKind;
  filename: string;
  content_type: string;
  size: number;
  created_at: string;
}

/** `GET /api/reports/{id}`: what the caller may see of one report. */
export interface ReportDetail {
  id: string;
  status: ReportState;
  title: string;
  product: {
    id: number;
    platform: string;
    kind: string;
    slug: string;
    name: string;
    is_lobby_product: boolean;
    has_active_program: boolean;
  };
  researcher: { uuid: string; display_name: string } | null;
  affected_version_prefix: string | null;
  affected_version: string | null;
  vulnerability_type: number | null;
  owasp_category: number | null;
  required_privilege: number | null;
  description: string | null;
  steps_to_reproduce: string | null;
  proof_of_concept: string | null;
  suggested_fix: string | null;
  reported_cvss_vector: string | null;
  cvss_vector: string | null;
  cvss_score: number | null;
  severity: string | null;
  cve: string | null;
  fixed_version: string | null;
  /** The link given with the fix (http or https, checked again before it is rendered). */
  fix_url?: string | null;
  rejection_reason: string | null;
  vendor_notified_at: string | null;
  fix_deadline_at: string | null;
  fixed_at: string | null;
  validated_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** The public vulnerability page once published. */
  public_path: string | null;
  /** What the caller may do next (the domain's TRANSITIONS for the caller's role). */
  actions: string[];
  attachments?: ReportAttachment[];
  timeline: ReportEvent[];
  comments: ReportComment[];
  /** Staff only. */
  reporter_email?: string | null;
  possible_duplicate_of?: string | null;
}

/** One product of `GET /api/v1/products` (the form's product picker). */
export interface ProductOption {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  url: string;
  is_active: boolean;
  is_lobby_product: boolean;
  vulnerabilities: number;
}

/** One known vulnerability of a product (`GET /api/products/{id}/vulnerabilities`). */
export interface KnownVulnerability {
  id: string;
  slug: string;
  title: string;
  cve: string | null;
  patched: boolean;
  fixed_in: string | null;
  affected_versions: string | null;
  product: { platform: string; kind: string; slug: string; name: string };
}
