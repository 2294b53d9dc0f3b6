import {
  actionsFrom,
  type DuplicateOf,
  type ReportActor,
  type ReportAttachment,
  type ReportDetail,
  type ReportListItem,
} from "@pressguard/domain";
import { isoOrNull } from "../../db/timestamps.ts";
import type { AttachmentRow } from "./attachment-queries.ts";
import type { CommentRow, EventRow, ReportListRow, ReportRow } from "./report-queries.ts";

/** A report's rows as the API answers them, to each of its readers. */

/**
 * Who reads a report: the three parties of PRODUCT.md §2. Anyone else gets 404. A holder of a
 * preview link reads as its audience (researcher or vendor), the PIN contact as the vendor.
 */
export type Viewer = "staff" | "researcher" | "vendor";

export function publicPathOf(
  row: Pick<ReportRow, "platform" | "product_kind" | "product_slug">,
  slug: string,
) {
  return `/database/${row.platform}/${row.product_kind}/${encodeURIComponent(row.product_slug)}/vulnerability/${slug}`;
}

export function listItemOf(row: ReportListRow, staff: boolean): ReportListItem {
  return {
    id: row.id,
    status: row.status,
    title: row.title,
    product: {
      platform: row.platform,
      kind: row.product_kind,
      slug: row.product_slug,
      name: row.product_name,
    },
    vulnerability_type: row.type_code,
    severity: row.severity,
    fix_deadline_at: isoOrNull(row.fix_deadline_at),
    deadline_passed_at: isoOrNull(row.deadline_passed_at),
    created_at: isoOrNull(row.created_at) ?? "",
    updated_at: isoOrNull(row.updated_at) ?? "",
    rejection_reason: row.rejection_reason,
    cve: row.cve,
    cve_requested_at: isoOrNull(row.cve_requested_at),
    ...(staff && { possible_duplicate_of: row.possible_duplicate_of }),
  };
}

export const attachmentOf = (row: AttachmentRow): ReportAttachment => ({
  id: row.id,
  kind: row.kind,
  filename: row.filename,
  content_type: row.content_type,
  size: row.size_bytes,
  created_at: isoOrNull(row.created_at) ?? "",
});

/**
 * What a duplicate duplicates (issue 19): the public record's title and link when there is one;
 * a report not public stays unnamed to all but staff.
 */
export function duplicateOf(row: ReportRow, viewer: Viewer): DuplicateOf | null {
  const id = row.duplicate_of_vulnerability_id ?? row.duplicate_of_report_id;
  if (row.rejection_reason !== "duplicate" || id === null) return null;
  const kind = row.duplicate_of_vulnerability_id ? "vulnerability" : "report";
  const publicPath = row.duplicate_public_slug ? publicPathOf(row, row.duplicate_public_slug) : null;
  if (viewer !== "staff")
    return { kind, title: publicPath ? row.duplicate_public_title : null, public_path: publicPath };
  return {
    kind,
    title: row.duplicate_public_title ?? row.duplicate_report_title,
    public_path: publicPath,
    id,
  };
}

export function detailOf(
  row: ReportRow,
  viewer: Viewer,
  events: EventRow[],
  comments: CommentRow[],
  actor: ReportActor | null,
  attachments: AttachmentRow[],
): ReportDetail {
  return {
    id: row.id,
    status: row.status,
    title: row.title,
    product: {
      id: row.product_id,
      platform: row.platform,
      kind: row.product_kind,
      slug: row.product_slug,
      name: row.product_name,
      is_lobby_product: row.product_is_lobby,
      has_active_program: row.product_vendor_id !== null && row.product_is_active,
    },
    researcher:
      row.researcher_uuid && row.researcher_name
        ? { uuid: row.researcher_uuid, display_name: row.researcher_name }
        : null,
    affected_version_prefix: row.affected_version_prefix,
    affected_version: row.affected_version,
    vulnerability_type: row.type_code,
    owasp_category: row.owasp_code,
    required_privilege: row.required_privilege,
    description: row.description,
    steps_to_reproduce: row.steps_to_reproduce,
    proof_of_concept: row.proof_of_concept,
    suggested_fix: row.suggested_fix,
    reported_cvss_vector: row.reported_cvss_vector,
    cvss_vector: row.cvss_vector,
    cvss_score: row.cvss_score === null ? null : Number(row.cvss_score),
    severity: row.severity,
    cve: row.cve,
    cve_requested_at: isoOrNull(row.cve_requested_at),
    fixed_version: row.fixed_version,
    fix_url: row.fix_url,
    ...(viewer !== "researcher" && { fix_diff: row.fix_diff }),
    rejection_reason: row.rejection_reason,
    vendor_notified_at: isoOrNull(row.vendor_notified_at),
    fix_deadline_at: isoOrNull(row.fix_deadline_at),
    deadline_passed_at: isoOrNull(row.deadline_passed_at),
    fixed_at: isoOrNull(row.fixed_at),
    validated_at: isoOrNull(row.validated_at),
    published_at: isoOrNull(row.published_at),
    created_at: isoOrNull(row.created_at) ?? "",
    updated_at: isoOrNull(row.updated_at) ?? "",
    public_path:
      row.status === "published" && row.vulnerability_slug ? publicPathOf(row, row.vulnerability_slug) : null,
    actions: actor ? actionsFrom(row.status, actor) : [],
    attachments: attachments.map(attachmentOf),
    timeline: events.map((event) => ({
      action: event.action,
      from_state: event.from_state,
      to_state: event.to_state,
      note: event.note,
      ...(viewer === "staff" && {
        actor:
          event.actor_user_id === null ? null : { id: event.actor_user_id, name: event.actor_name ?? "" },
      }),
      created_at: isoOrNull(event.created_at) ?? "",
    })),
    comments: comments.map((comment) => ({
      id: comment.id,
      body: comment.body,
      visibility: comment.visibility,
      author: comment.author_name === null ? null : { name: comment.author_name },
      created_at: isoOrNull(comment.created_at) ?? "",
    })),
    duplicate_of: duplicateOf(row, viewer),
    ...(viewer === "staff" && {
      reporter_email: row.reporter_email,
      possible_duplicate_of: row.possible_duplicate_of,
      possible_duplicate_of_vulnerability_id: row.possible_duplicate_of_vulnerability_id,
    }),
  };
}
