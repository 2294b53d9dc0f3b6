import { hasOpenCveRequest, REPORT_STATES, type ReportListItem, type ReportState } from "@pressguard/domain";
import { useInfiniteQuery } from "@tanstack/react-query";
import { SeverityLabel, StateBadge } from "../../components/report-badges.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { formatDay, stateLabel, vulnerabilityTypeLabel } from "../../lib/reports.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { LoadMoreTable } from "../../ui/load-more-table.tsx";
import { TabNav } from "../../ui/tab-nav.tsx";
import {
  isWaitingView,
  type QueueView,
  staffReportListQuery,
  WAITING_VIEWS,
  type WaitingView,
} from "./api.ts";

export const STAFF_QUEUE_PATH = "/staff/reports";

/** The filter tabs of the queue: new reports first, then the lifecycle in order, then all. */
const FILTERS: readonly (ReportState | null)[] = [
  ...REPORT_STATES.filter((s) => s !== "rejected"),
  "rejected",
  null,
];

export function queueFilterPath(status: QueueView): string {
  return status ? `${STAFF_QUEUE_PATH}?status=${status}` : `${STAFF_QUEUE_PATH}?status=all`;
}

/**
 * The queue's filter from the page URL, leniently (STYLE.md): no `status` means new reports
 * (`submitted`), `all` means every state, a waiting list by its name, anything unknown falls back to
 * new reports.
 */
export function queueStatusOf(search: URLSearchParams): QueueView {
  const status = search.get("status");
  if (status === "all") return null;
  if ((WAITING_VIEWS as readonly string[]).includes(status ?? "")) return status as WaitingView;
  return (REPORT_STATES as readonly string[]).includes(status ?? "") ? (status as ReportState) : "submitted";
}

const TABS = FILTERS.map((status) => ({
  label: status === null ? "All" : status === "submitted" ? "New" : stateLabel(status),
  to: queueFilterPath(status),
}));

/** The lists of reports waiting on staff, across states, linked above the tabs. */
const WAITING_LINKS: readonly { view: WaitingView; label: string; empty: string }[] = [
  {
    view: "no_vendor_contact",
    label: "No vendor contact",
    empty: "Every validated report has someone to notify.",
  },
  {
    view: "deadline_passed",
    label: "Fix deadline passed",
    empty: "No report is past its fix deadline.",
  },
  {
    view: "cve_requested",
    label: "CVE requested",
    empty: "No researcher is waiting for a CVE id.",
  },
];

const COLUMNS = [
  { label: "Report" },
  { label: "Product" },
  { label: "Status" },
  { label: "Severity" },
  { label: "Received", nowrap: true },
];

/** `/staff/reports`: the triage queue by state, newest first, "Load more" pages on (decision 008). */
export function ReportQueue({ status }: { status: QueueView }) {
  const client = useApiClient();
  const list = useInfiniteQuery(staffReportListQuery(client, status));
  const reports = list.data?.pages.flatMap((page) => page.data) ?? [];
  const total = list.data?.pages[0]?.pagination.total;

  return (
    <>
      <nav aria-label="Reports waiting on staff" className="mb-3 flex flex-wrap gap-2 text-sm">
        {WAITING_LINKS.map((link) => (
          <Link
            key={link.view}
            to={queueFilterPath(link.view)}
            aria-current={status === link.view ? "page" : undefined}
            className={`rounded-full border px-3 py-1 font-medium ${
              status === link.view
                ? "border-slate-900 bg-slate-900 text-white"
                : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
            }`}
          >
            {link.label}
          </Link>
        ))}
      </nav>
      <TabNav label="Report status" tabs={TABS} currentTo={queueFilterPath(status)} />
      {list.isError ? (
        <LoadError message="Error fetching reports" />
      ) : !list.data ? (
        <p className="text-slate-600" aria-busy="true">
          Loading reports…
        </p>
      ) : reports.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">
          {status === null
            ? "No report has been submitted yet."
            : isWaitingView(status)
              ? WAITING_LINKS.find((link) => link.view === status)?.empty
              : `No report is ${stateLabel(status).toLowerCase()} right now.`}
        </p>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600">
            {total} {total === 1 ? "report" : "reports"}, newest first
          </p>
          <LoadMoreTable columns={COLUMNS} list={list}>
            {reports.map((report) => (
              <QueueRow key={report.id} report={report} />
            ))}
          </LoadMoreTable>
        </>
      )}
    </>
  );
}

function QueueRow({ report }: { report: ReportListItem }) {
  const type = vulnerabilityTypeLabel(report.vulnerability_type);
  return (
    <tr className="align-top">
      <td className="px-4 py-3">
        <Link to={`/staff/reports/${report.id}`} className="link font-semibold">
          {report.title}
        </Link>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          {type && <span>{type}</span>}
          {report.possible_duplicate_of && (
            <Link
              to={`/staff/reports/${report.possible_duplicate_of}`}
              className="rounded-full bg-red-100 px-2 py-0.5 font-semibold text-red-900 hover:underline"
            >
              Possible duplicate
            </Link>
          )}
          {hasOpenCveRequest(report) && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">
              CVE requested
            </span>
          )}
        </p>
      </td>
      <td className="px-4 py-3">
        <span className="font-medium text-slate-900">{report.product.name}</span>
        <span className="block font-mono text-xs break-all text-slate-500">
          {report.product.kind}/{report.product.slug}
        </span>
      </td>
      <td className="px-4 py-3">
        <StateBadge state={report.status} />
      </td>
      <td className="px-4 py-3">
        <SeverityLabel severity={report.severity} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-700">
        <time dateTime={report.created_at}>{formatDay(report.created_at)}</time>
      </td>
    </tr>
  );
}
