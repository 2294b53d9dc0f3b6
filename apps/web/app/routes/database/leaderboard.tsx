import { databaseApi } from "../../features/database/api.server.ts";
import { ResearcherTable } from "../../features/database/researcher-table.tsx";
import { requireLeaderboardType } from "../../lib/database-params.ts";
import type { TabItem } from "../../lib/navigation.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
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

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const type = requireLeaderboardType(params.type);
  const leaderboard = await databaseApi.getLeaderboard({ request, context }, type);
  return { type, leaderboard };
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
      {loaderData.leaderboard.data.length > 0 ? (
        <ResearcherTable
          entries={loaderData.leaderboard.data}
          caption={`Leaderboard: ${current?.label ?? ""}`}
        />
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">
          No credited vulnerability was published in this period yet.
        </p>
      )}
    </>
  );
}
