import { stateLabel } from "../lib/reports.ts";
import { SeverityBadge } from "./severity-badge.tsx";

/**
 * A report's state and severity as badges: in the lists (staff queue, vendor reports) and on the
 * report pages. Kept apart from report-parts.tsx so that a list loads no comment form, markdown or
 * request schema.
 */

const STATE_CLASSES: Record<string, string> = {
  submitted: "bg-sky-100 text-sky-900",
  in_review: "bg-indigo-100 text-indigo-900",
  rejected: "bg-slate-200 text-slate-800",
  validated: "bg-violet-100 text-violet-900",
  awaiting_fix: "bg-amber-100 text-amber-900",
  fix_pending: "bg-orange-100 text-orange-900",
  fixed: "bg-lime-100 text-lime-900",
  published: "bg-emerald-100 text-emerald-900",
};

export function StateBadge({ state }: { state: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${
        STATE_CLASSES[state] ?? "bg-slate-200 text-slate-800"
      }`}
    >
      {stateLabel(state)}
    </span>
  );
}

/** The CVSS severity band in words (colour is never the only signal); "Not rated" before validation. */
export function SeverityLabel({ severity, score }: { severity: string | null; score?: number | null }) {
  if (!severity) return <span className="text-xs text-slate-500">Not rated</span>;
  return <SeverityBadge severity={severity} score={score} />;
}
