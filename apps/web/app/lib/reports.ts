import type { ReportComment } from "../features/reports/types.ts";

/** The wording of reports shared by the researcher, staff and vendor pages (types: features/reports/types.ts). */

export type { ReportComment, ReportDetail, ReportEvent, ReportListItem } from "../features/reports/types.ts";
export type CommentVisibility = ReportComment["visibility"];

export {
  actionLabel,
  affectedVersionsLabel,
  owaspLabel,
  privilegeLabel,
  REPORT_STATE_LABELS,
  stateLabel,
  vulnerabilityTypeLabel,
} from "../features/reports/labels.ts";
export { formatDateTime, formatDay } from "./dates.ts";

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
