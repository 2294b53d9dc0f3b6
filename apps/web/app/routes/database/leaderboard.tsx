import { requireLeaderboardType } from "../../lib/database-params.ts";
import type { TabItem } from "../../lib/navigation.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import { TabNav } from "../../ui/tab-nav.tsx";
import type { Route } from "./+types/leaderboard";

/** Monthly is the default and lives at the bare path (PRODUCT §5). */
const LEADERBOARD_TABS = [
  { label: "This month", to: "/database/leaderboard", heading: "monthly" },
  { label: "This year", to: "/database/leaderboard/yearly", heading: "yearly" },
  { label: "All time", to: "/database/leaderboard/all-time", heading: "all-time" },
] as const satisfies readonly TabItem[];

export function loader({ params }: Route.LoaderArgs) {
  return { type: requireLeaderboardType(params.type) };
}

export const meta = pageMeta("Researcher leaderboard", "WordPress security researchers ranked by points.");

export default function LeaderboardPage({ loaderData }: Route.ComponentProps) {
  const current = LEADERBOARD_TABS.find((tab) => tab.heading === loaderData.type);
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Leaderboard"
        lead="Researchers ranked by points for published vulnerabilities: critical 10, high 7, medium 4, low 1, doubled when the product runs an active program."
      />
      <TabNav label="Period" tabs={LEADERBOARD_TABS} currentTo={current?.to} />
    </>
  );
}
