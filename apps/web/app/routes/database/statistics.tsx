import { databaseApi } from "../../features/database/api.server.ts";
import { ResearcherTable } from "../../features/database/researcher-table.tsx";
import {
  PLATFORM_LABELS,
  requirePlatform,
  requireTimeframe,
  timeframeLabel,
} from "../../lib/database-params.ts";
import type { TabItem } from "../../lib/navigation.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import { TabNav } from "../../ui/tab-nav.tsx";
import type { Route } from "./+types/statistics";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const platform = requirePlatform(params.platform);
  const timeframe = requireTimeframe(params.timeframe);
  const statistics = await databaseApi.getStatistics({ request, context }, platform, timeframe);
  return { platform, platformLabel: PLATFORM_LABELS[platform], timeframe, statistics };
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
  return (
    <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm shadow-sm">
      <caption className="px-4 pt-3 text-left text-base font-semibold text-slate-900">{caption}</caption>
      <thead className="text-slate-700">
        <tr>
          <th scope="col" className="px-4 py-2">
            {caption.split(" by ")[1] ?? "Value"}
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
            <td className="px-4 py-2 text-right tabular-nums">{row.count.toLocaleString("en-GB")}</td>
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

export default function StatisticsPage({ loaderData }: Route.ComponentProps) {
  const { platform, platformLabel, timeframe, statistics } = loaderData;
  const base = `/database/statistics/${platform}`;
  const year = new Date().getFullYear();
  const tabs: TabItem[] = [
    { label: "All time", to: base, heading: "all-time" },
    { label: "Last 30 days", to: `${base}/last-30-days`, heading: "last-30-days" },
    { label: String(year), to: `${base}/${year}`, heading: String(year) },
    { label: String(year - 1), to: `${base}/${year - 1}`, heading: String(year - 1) },
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
        <strong>{statistics.total.toLocaleString("en-GB")}</strong> vulnerabilities ·{" "}
        {statistics.patched.patched.toLocaleString("en-GB")} patched ·{" "}
        {statistics.patched.unpatched.toLocaleString("en-GB")} without a known fix
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        <CountTable caption="Vulnerabilities by kind" rows={statistics.by_kind} />
        <CountTable caption="Vulnerabilities by severity" rows={statistics.by_severity} />
        <CountTable caption="Vulnerabilities by type" rows={statistics.by_type} />
        <CountTable
          caption="Vulnerabilities by month"
          rows={statistics.monthly.map((row) => ({ key: row.month, label: row.month, count: row.count }))}
        />
      </div>
      <p className="mt-3 text-sm text-slate-600">
        The monthly counts include only records with a publication date; many recent records have none yet.
      </p>
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
