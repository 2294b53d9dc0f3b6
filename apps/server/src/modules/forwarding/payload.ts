import { randomUUID } from "node:crypto";
import { type ForwardEventType, vulnerabilityTypeByCode } from "@pressguard/domain";
import { isoOf } from "../../db/timestamps.ts";
import type { ReportEvent } from "../reports/events.ts";

/**
 * What a forwarded event tells (issue 8): only what the vendor may read on the report's page.
 * Never a token, a staff-only comment or the researcher's e-mail address.
 */
export interface ForwardPayload {
  id: string;
  type: ForwardEventType;
  created_at: string;
  test?: true;
  report: {
    id: string;
    title: string;
    url: string;
    product: { name: string; slug: string; kind: string };
    state: { from: string | null; to: string };
    action: string;
    severity: string | null;
    cvss: { score: number | null; vector: string | null };
    vulnerability_type: string | null;
    affected_versions: string | null;
    fixed_version: string | null;
    fix_deadline_at: string | null;
  };
  comment?: { id: number; body: string; created_at: string };
}

/** One vulnerability that concerns a watched entry, and what to do about it. */
export interface WatchAlertItem {
  /** `new`: newly published affecting it; `changed`: its severity, fix or ranges changed. */
  change: "new" | "changed";
  entry: { kind: string; slug: string; version: string };
  vulnerability: {
    id: string;
    title: string;
    url: string;
    severity: string | null;
    cve: string | null;
    /** The entry's product's fix, as the batch check answers it. */
    fixed_in: string | null;
    /** No fix listed, but the product's current version is above the range (issue 17). */
    fixed_in_inferred: string | null;
  };
  /** "Update contact-form-7 to 5.9.5 or later." (the listed fix, or else the inferred one) or that there is no fix yet. */
  action: string;
}

/**
 * What a watchlist's alert webhook receives (issue 20): the alerts of one run for one watchlist, or
 * the "send test event" example. Signed and delivered by the same queue as the report events.
 */
export interface WatchAlertPayload {
  id: string;
  type: "watchlist.alert" | "watchlist.test";
  created_at: string;
  test?: true;
  watchlist: { id: string; name: string; url: string };
  alerts: WatchAlertItem[];
}

/**
 * A vendor's notice to the users of its product (CRA Art. 14(8), issue 20), as a watchlist holding
 * the product receives it on its webhooks.
 */
export interface WatchNoticePayload {
  id: string;
  type: "watchlist.notice";
  created_at: string;
  watchlist: { id: string; name: string; url: string };
  notice: {
    vendor: string;
    product: { name: string; kind: string; slug: string; url: string };
    message: string;
  };
}

/** Any event the delivery queue carries. */
export type DeliveryPayload = ForwardPayload | WatchAlertPayload | WatchNoticePayload;

export const isReportPayload = (payload: DeliveryPayload): payload is ForwardPayload => "report" in payload;
export const isWatchAlertPayload = (payload: DeliveryPayload): payload is WatchAlertPayload =>
  "alerts" in payload;
export const isWatchNoticePayload = (payload: DeliveryPayload): payload is WatchNoticePayload =>
  "notice" in payload;

/** The report as a forwarded event tells it, read in the change's transaction (`findReportSnapshot`). */
export interface ReportSnapshot {
  id: string;
  title: string;
  product_name: string;
  product_slug: string;
  product_kind: string;
  severity: string | null;
  cvss_score: string | number | null;
  cvss_vector: string | null;
  type_code: number | null;
  affected_version_prefix: string | null;
  affected_version: string | null;
  fixed_version: string | null;
  fix_deadline_at: Date | string | null;
}

/** A comment of the report that the vendor reads, for a comment event (`findVendorComment`). */
export interface VendorComment {
  id: number;
  body: string;
  created_at: Date | string;
}

/** The vendor's preview page of the report: no token, the vendor signs in to read it. */
const reportLinkOf = (appUrl: string, reportId: string) =>
  `${appUrl}/vdp/vulnerabilities/${reportId}/preview`;

function affectedOf(row: ReportSnapshot): string | null {
  if (!row.affected_version) return null;
  return `${row.affected_version_prefix ?? ""}${row.affected_version}`.trim();
}

/** The payload of a report's event, from the rows the sink read in the change's transaction. */
export function reportPayloadOf(
  appUrl: string,
  event: ReportEvent,
  row: ReportSnapshot,
  comment: VendorComment | undefined,
  now: Date,
): ForwardPayload {
  const payload: ForwardPayload = {
    id: randomUUID(),
    type: event.type,
    created_at: now.toISOString(),
    report: {
      id: row.id,
      title: row.title,
      url: reportLinkOf(appUrl, row.id),
      product: { name: row.product_name, slug: row.product_slug, kind: row.product_kind },
      state: { from: event.fromState, to: event.toState },
      action: event.action,
      severity: row.severity,
      cvss: { score: row.cvss_score === null ? null : Number(row.cvss_score), vector: row.cvss_vector },
      vulnerability_type:
        row.type_code === null ? null : (vulnerabilityTypeByCode.get(row.type_code)?.label ?? null),
      affected_versions: affectedOf(row),
      fixed_version: row.fixed_version,
      fix_deadline_at: row.fix_deadline_at === null ? null : isoOf(row.fix_deadline_at),
    },
  };
  if (comment)
    payload.comment = { id: comment.id, body: comment.body, created_at: isoOf(comment.created_at) };
  return payload;
}

/** The "send test event" payload: an obviously fake report. */
export function testPayload(appUrl: string, now: Date): ForwardPayload {
  const reportId = "00000000-0000-4000-8000-000000000000";
  return {
    id: randomUUID(),
    type: "report.test",
    created_at: now.toISOString(),
    test: true,
    report: {
      id: reportId,
      title: "Test event: stored XSS in an example plugin",
      url: reportLinkOf(appUrl, reportId),
      product: { name: "Example Plugin", slug: "example-plugin", kind: "plugin" },
      state: { from: "validated", to: "awaiting_fix" },
      action: "test",
      severity: "medium",
      cvss: { score: 5.4, vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N" },
      vulnerability_type: "Cross-Site Scripting (XSS)",
      affected_versions: "<=1.0.0",
      fixed_version: "1.0.1",
      fix_deadline_at: null,
    },
  };
}
