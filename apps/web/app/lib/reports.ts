import type { ReportComment } from "@pressguard/domain";

/** The wording of reports shared by the researcher, staff and vendor pages (types: the domain package). */

export type CommentVisibility = ReportComment["visibility"];

export { formatDateTime, formatDay } from "./dates.ts";
export {
  actionLabel,
  affectedVersionsLabel,
  owaspLabel,
  privilegeLabel,
  stateLabel,
  vulnerabilityTypeLabel,
} from "./report-labels.ts";

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
