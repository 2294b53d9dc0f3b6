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

export function loader({ params }: Route.LoaderArgs) {
  const platform = requirePlatform(params.platform);
  return {
    platform,
    platformLabel: PLATFORM_LABELS[platform],
    timeframe: requireTimeframe(params.timeframe),
  };
}

export const meta = pageMeta(
  ({ params }) =>
    `${PLATFORM_LABELS.wordpress} vulnerability statistics${params.timeframe ? ` — ${timeframeLabel(params.timeframe)}` : ""}`,
);

export default function StatisticsPage({ loaderData }: Route.ComponentProps) {
  const { platform, platformLabel, timeframe } = loaderData;
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
    </>
  );
}
