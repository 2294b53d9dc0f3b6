import { owaspCategoryByCode, vulnerabilityTypeByCode, wordPressRoleByCode } from "@pressguard/domain";
import type { ReportComment } from "../features/reports/types.ts";

/** The wording of reports shared by the researcher, staff and vendor pages (types: features/reports/types.ts). */

export type { ReportComment, ReportDetail, ReportEvent, ReportListItem } from "../features/reports/types.ts";
export type CommentVisibility = ReportComment["visibility"];

export { actionLabel, REPORT_STATE_LABELS, stateLabel } from "../features/reports/labels.ts";

export function vulnerabilityTypeLabel(code: number | null): string | null {
  return code === null ? null : (vulnerabilityTypeByCode.get(code)?.label ?? `Type ${code}`);
}

export function owaspLabel(code: number | null): string | null {
  if (code === null) return null;
  const category = owaspCategoryByCode.get(code);
  return category ? `${category.id} ${category.label}` : `OWASP ${code}`;
}

export function privilegeLabel(code: number | null): string | null {
  return code === null ? null : (wordPressRoleByCode.get(code)?.label ?? `Role ${code}`);
}

/** "<= 1.2.3", "< 2.0" or "1.4.0" (an exact version). */
export function affectedVersionsLabel(prefix: string | null, version: string | null): string | null {
  if (!version) return null;
  return prefix ? `${prefix} ${version}` : version;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whole days until the fix deadline, rounded up (a deadline later today is 1 day left); negative
 * once it has passed; null without a deadline.
 */
export function daysLeft(deadline: string | null, now = Date.now()): number | null {
  if (!deadline) return null;
  const time = new Date(deadline).getTime();
  if (Number.isNaN(time)) return null;
  return Math.ceil((time - now) / DAY_MS);
}

/** "12 days left", "1 day left", "Due today", "3 days overdue". */
export function daysLeftLabel(days: number | null): string | null {
  if (days === null) return null;
  if (days > 0) return `${days} ${days === 1 ? "day" : "days"} left`;
  if (days === 0) return "Due today";
  const overdue = -days;
  return `${overdue} ${overdue === 1 ? "day" : "days"} overdue`;
}

/** "2024-06-13T06:00:02Z" → "13 June 2024" (UTC, the same in every browser). */
export function formatDay(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** "13 June 2024, 06:00 UTC", for timeline entries and comments. */
export function formatDateTime(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toLocaleString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  })} UTC`;
}
