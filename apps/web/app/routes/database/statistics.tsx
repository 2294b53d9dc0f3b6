import type { MonthlyCount } from "@pressguard/domain";
import { databaseApi } from "../../features/database/api.server.ts";
import { ResearcherTable } from "../../features/database/researcher-table.tsx";
import {
  CHART_SEVERITIES,
  inSeverityOrder,
  MAX_CHART_MONTHS,
  monthLabel,
  monthlySeries,
  presentSeverities,
} from "../../features/database/statistics-chart-data.ts";
import {
  MonthlyTrendChart,
  SeverityChart,
  SeverityLegend,
} from "../../features/database/statistics-charts.tsx";
import {
  PLATFORM_LABELS,
  requirePlatform,
  requireTimeframe,
  timeframeLabel,
} from "../../lib/database-params.ts";
import type { TabItem } from "../../lib/navigation.ts";
import { formatCount } from "../../lib/numbers.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import { TabNav } from "../../ui/tab-nav.tsx";
import type { Route } from "./+types/statistics";

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const platform = requirePlatform(params.platform);
  const timeframe = requireTimeframe(params.timeframe);
  const statistics = await databaseApi.getStatistics({ request, context }, platform, timeframe);
  return { platform, platformLabel: PLATFORM_LABELS[platform], timeframe, statistics };
}

/** "Vulnerabilities by kind" → "Kind". */
function columnHeading(caption: string): string {
  const subject = caption.split(" by ")[1] ?? "value";
  return subject.charAt(0).toUpperCase() + subject.slice(1);
}

/** A count table with a proportional bar: readable without JavaScript, and by screen readers. */
function CountTable({
  caption,
  rows,
}: {
  caption: string;
  rows: { key: string; label: string; count: number }[];
}) {
  const max = Math.max(1, ...rows.map((row) => row.count));
  // An empty period: no table of headers without rows (issue 19).
  if (rows.length === 0) return null;
  return (
    <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm shadow-sm">
      <caption className="px-4 pt-3 text-left text-base font-semibold text-slate-900">{caption}</caption>
      <thead className="text-slate-700">
        <tr>
          <th scope="col" className="px-4 py-2">
            {columnHeading(caption)}
          </th>
          <th scope="col" className="px-4 py-2 text-right">
            Vulnerabilities
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200">
        {rows.map((row) => (
          <tr key={row.key}>
            <td className="px-4 py-2">
              {row.label}
              <span
                aria-hidden="true"
                className="mt-1 block h-1.5 rounded bg-lime-500"
                style={{ width: `${(row.count / max) * 100}%` }}
              />
            </td>
            <td className="px-4 py-2 text-right tabular-nums">{formatCount(row.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The numbers of the trend chart: each month with a dated record, split by severity. */
function MonthlyTable({ rows }: { rows: MonthlyCount[] }) {
  const bands = CHART_SEVERITIES.filter((band) => presentSeverities(rows).includes(band.key));
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Vulnerabilities by month and severity</caption>
      <thead className="text-slate-700">
        <tr>
          <th scope="col" className="px-4 py-2">
            Month
          </th>
          {bands.map((band) => (
            <th key={band.key} scope="col" className="px-4 py-2 text-right">
              {band.label}
            </th>
          ))}
          <th scope="col" className="px-4 py-2 text-right">
            Total
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 tabular-nums">
        {rows.map((row) => (
          <tr key={row.month}>
            <th scope="row" className="px-4 py-2 font-normal">
              {monthLabel(row.month)}
            </th>
            {bands.map((band) => (
              <td key={band.key} className="px-4 py-2 text-right">
                {formatCount(row.by_severity[band.key])}
              </td>
            ))}
            <td className="px-4 py-2 text-right font-semibold">{formatCount(row.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const meta = pageMeta(
  ({ params }) =>
    `${PLATFORM_LABELS.wordpress} vulnerability statistics${params.timeframe ? ` — ${timeframeLabel(params.timeframe)}` : ""}`,
  ({ params }) =>
    `WordPress plugin, theme and core vulnerabilities over ${timeframeLabel(params.timeframe ?? "all-time")}: counts by kind, type, severity and patch status, the monthly trend and the top researchers.`,
);

/** The years of the tabs: those with records, and the one in the path, newest first. */
function yearsToOffer(years: { year: number }[], timeframe: string): number[] {
  const offered = new Set(years.map((entry) => entry.year));
  if (/^\d{4}$/.test(timeframe)) offered.add(Number(timeframe));
  return [...offered].sort((a, b) => b - a);
}

export default function StatisticsPage({ loaderData }: Route.ComponentProps) {
  const { platform, platformLabel, timeframe, statistics } = loaderData;
  const base = `/database/statistics/${platform}`;
  const trend = monthlySeries(statistics.monthly);
  const severities = inSeverityOrder(statistics.by_severity);
  const tabs: TabItem[] = [
    { label: "All time", to: base, heading: "all-time" },
    { label: "Last 30 days", to: `${base}/last-30-days`, heading: "last-30-days" },
    // Every year with records, newest first (issue 19: only this year and the last were offered, not
    // 2024, the year with the most records); the year shown stays a tab even if it has none.
    ...yearsToOffer(statistics.years, timeframe).map((year) => ({
      label: String(year),
      to: `${base}/${year}`,
      heading: String(year),
    })),
  ];
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title={`${platformLabel} vulnerability statistics`}
        lead={`Vulnerabilities published over ${timeframeLabel(timeframe)}, counted by kind, type, severity and patch status, with the monthly trend and the top researchers.`}
      />
      <TabNav label="Timeframe" tabs={tabs} currentTo={tabs.find((tab) => tab.heading === timeframe)?.to} />
      <p className="mb-6 text-lg text-slate-700">
        <strong>{formatCount(statistics.total)}</strong> vulnerabilities ·{" "}
        {formatCount(statistics.patched.patched)} patched · {formatCount(statistics.patched.unpatched)}{" "}
        without a known fix
      </p>
      <section
        aria-labelledby="monthly-trend"
        className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="monthly-trend" className="text-xl font-semibold text-slate-900">
          Monthly trend
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Only records with a publication date are counted by month; many recent records have none yet.
          {trend.length > 0 && trend[0]!.month > statistics.monthly[0]!.month
            ? ` The chart shows the last ${MAX_CHART_MONTHS} months, from ${monthLabel(trend[0]!.month)}; the table lists every month.`
            : ""}
        </p>
        {trend.length > 0 ? (
          <>
            <SeverityLegend keys={presentSeverities(trend)} />
            {/* One drawing per screen width, chosen by CSS: the page works without JavaScript. */}
            <div className="mt-3 hidden sm:block">
              <MonthlyTrendChart series={trend} />
            </div>
            <div className="mt-3 sm:hidden">
              <MonthlyTrendChart series={trend} width={400} />
            </div>
            <details className="mt-4 rounded-md border border-slate-200">
              <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-slate-800">
                Monthly counts as a table ({statistics.monthly.length}{" "}
                {statistics.monthly.length === 1 ? "month" : "months"})
              </summary>
              {/* Six columns do not fit a phone: the table scrolls, not the page (issue 19). */}
              <div className="overflow-x-auto">
                <MonthlyTable rows={statistics.monthly} />
              </div>
            </details>
          </>
        ) : (
          <p className="text-slate-600">No dated vulnerability in this period.</p>
        )}
      </section>
      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <section
          aria-labelledby="severity-breakdown"
          className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
        >
          <h2 id="severity-breakdown" className="mb-4 text-xl font-semibold text-slate-900">
            Severity breakdown
          </h2>
          {severities.length > 0 ? (
            <>
              <div className="hidden sm:block">
                <SeverityChart rows={severities} />
              </div>
              <div className="sm:hidden">
                <SeverityChart rows={severities} width={360} />
              </div>
            </>
          ) : (
            <p className="text-slate-600">No vulnerability in this period.</p>
          )}
        </section>
        <CountTable caption="Vulnerabilities by severity" rows={severities} />
        <CountTable caption="Vulnerabilities by kind" rows={statistics.by_kind} />
        <CountTable caption="Vulnerabilities by type" rows={statistics.by_type} />
      </div>
      <section aria-labelledby="top-researchers" className="mt-8">
        <h2 id="top-researchers" className="mb-4 text-xl font-semibold text-slate-900">
          Top researchers
        </h2>
        {statistics.top_researchers.length > 0 ? (
          <ResearcherTable entries={statistics.top_researchers} caption="Top researchers" />
        ) : (
          <p className="text-slate-600">No credited vulnerability in this period.</p>
        )}
      </section>
    </>
  );
}
