import type { ReportListItem } from "@pressguard/domain";
import { formatDay } from "../../lib/dates.ts";
import {
  kindLabel,
  rejectionReasonLabel,
  stateLabel,
  vulnerabilityTypeLabel,
} from "../../lib/report-labels.ts";
import { Link } from "../../ui/link.tsx";

interface ReportListProps {
  reports: readonly ReportListItem[];
  total: number;
  /** Links to the neighbouring pages (from the API's `next_page_url` / `prev_page_url`), or null. */
  previousHref: string | null;
  nextHref: string | null;
  /** Where a report's row leads. */
  previewHref: (report: ReportListItem) => string;
}

/** A page of reports (researcher, vendor or staff list): title, product, type, status and dates. */
export function ReportList({ reports, total, previousHref, nextHref, previewHref }: ReportListProps) {
  return (
    <>
      <p className="mb-3 text-sm text-slate-600">
        {total} {total === 1 ? "report" : "reports"}
      </p>
      <ul
        aria-label="Reports"
        className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
      >
        {reports.map((report) => (
          <li
            key={report.id}
            className="relative flex flex-col gap-2 px-4 py-4 hover:bg-slate-50 sm:flex-row sm:items-center sm:gap-6 sm:px-6"
          >
            <div className="min-w-0 flex-1">
              <Link
                to={previewHref(report)}
                className="font-semibold break-words text-slate-900 after:absolute after:inset-0 hover:underline"
              >
                {report.title}
              </Link>
              <p className="mt-1 text-sm break-words text-slate-500">
                {report.product.name} · {kindLabel(report.product.kind)} ·{" "}
                {vulnerabilityTypeLabel(report.vulnerability_type) ?? "Not set"}
              </p>
              {report.status === "rejected" && report.rejection_reason && (
                <p className="mt-1 text-sm text-slate-700">
                  Reason: {rejectionReasonLabel(report.rejection_reason)}
                </p>
              )}
            </div>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
              <span className="rounded-full border border-slate-300 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
                {stateLabel(report.status)}
              </span>
              <span>Reported {formatDay(report.created_at) ?? "—"}</span>
            </div>
          </li>
        ))}
      </ul>
      {(previousHref || nextHref) && (
        <nav aria-label="Pages" className="mt-6 flex justify-between gap-3">
          {previousHref ? (
            <Link to={previousHref} className="btn-secondary">
              ← Newer reports
            </Link>
          ) : (
            <span />
          )}
          {nextHref && (
            <Link to={nextHref} className="btn-secondary">
              Older reports →
            </Link>
          )}
        </nav>
      )}
    </>
  );
}
