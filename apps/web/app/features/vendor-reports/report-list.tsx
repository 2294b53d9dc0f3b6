import type { ReportListItem, VendorReportTab } from "@pressguard/domain";
import { useInfiniteQuery } from "@tanstack/react-query";
import { SeverityLabel, StateBadge } from "../../components/report-badges.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { daysLeft, daysLeftLabel, formatDay, vulnerabilityTypeLabel } from "../../lib/reports.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { LoadMoreTable, type TableColumn } from "../../ui/load-more-table.tsx";
import { vendorReportListQuery } from "./api.ts";

const EMPTY: Record<VendorReportTab, string> = {
  awaiting_fix:
    "No report waits for a fix. When our team validates a report on one of your products, it appears here with its deadline.",
  fix_pending: "No fix is waiting for verification. Fixes you submit appear here until our team checks them.",
  fixed:
    "No fixed report yet. Reports whose fix our team verified appear here, then on the public database once published.",
};

const DEADLINE: TableColumn = { label: "Fix deadline" };
const COLUMNS: readonly TableColumn[] = [
  { label: "Report" },
  { label: "Product" },
  { label: "Severity" },
  { label: "Status" },
  DEADLINE,
  { label: "Reported", nowrap: true },
];

function vendorPreviewPath(id: string): string {
  return `/vdp/vulnerabilities/${encodeURIComponent(id)}/preview`;
}

/** One report tab of the vendor (PRODUCT.md §2 tab table), "Load more" pages on. */
export function VendorReportList({ tab }: { tab: VendorReportTab }) {
  const client = useApiClient();
  const list = useInfiniteQuery(vendorReportListQuery(client, tab));
  const reports = list.data?.pages.flatMap((page) => page.data) ?? [];
  const showDeadline = tab !== "fixed";

  if (list.isError) return <LoadError message="Error fetching reports" />;
  if (!list.data)
    return (
      <p className="text-slate-600" aria-busy="true">
        Loading reports…
      </p>
    );
  if (reports.length === 0)
    return <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">{EMPTY[tab]}</p>;
  return (
    <LoadMoreTable
      columns={showDeadline ? COLUMNS : COLUMNS.filter((column) => column !== DEADLINE)}
      list={list}
    >
      {reports.map((report) => (
        <VendorReportRow key={report.id} report={report} showDeadline={showDeadline} />
      ))}
    </LoadMoreTable>
  );
}

function VendorReportRow({ report, showDeadline }: { report: ReportListItem; showDeadline: boolean }) {
  const left = daysLeft(report.fix_deadline_at);
  const type = vulnerabilityTypeLabel(report.vulnerability_type);
  return (
    <tr className="align-top">
      <td className="px-4 py-3">
        <Link to={vendorPreviewPath(report.id)} className="link font-semibold">
          {report.title}
        </Link>
        {type && <p className="mt-1 text-xs text-slate-600">{type}</p>}
      </td>
      <td className="px-4 py-3">
        <span className="font-medium text-slate-900">{report.product.name}</span>
        <span className="block font-mono text-xs break-all text-slate-500">{report.product.slug}</span>
      </td>
      <td className="px-4 py-3">
        <SeverityLabel severity={report.severity} />
      </td>
      <td className="px-4 py-3">
        <StateBadge state={report.status} />
      </td>
      {showDeadline && (
        <td className="px-4 py-3 whitespace-nowrap">
          {report.fix_deadline_at ? (
            <>
              <time dateTime={report.fix_deadline_at} className="text-slate-900">
                {formatDay(report.fix_deadline_at)}
              </time>
              <span
                className={`block text-xs font-semibold ${left !== null && left < 0 ? "text-red-700" : left !== null && left <= 7 ? "text-amber-800" : "text-slate-600"}`}
              >
                {daysLeftLabel(left)}
              </span>
            </>
          ) : (
            <span className="text-xs text-slate-500">Starts when you are notified</span>
          )}
        </td>
      )}
      <td className="px-4 py-3 whitespace-nowrap text-slate-700">
        <time dateTime={report.created_at}>{formatDay(report.created_at)}</time>
      </td>
    </tr>
  );
}
