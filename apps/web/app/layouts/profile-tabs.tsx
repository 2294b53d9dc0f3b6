import { Outlet, useLocation, useParams } from "react-router";
import { databaseApi } from "../features/database/api.server.ts";
import { activeTab, profileTabs } from "../lib/navigation.ts";
import { formatCount } from "../lib/numbers.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/profile-tabs";

/**
 * The researcher's standing, from their public profile (issue 19: researchers did not see their
 * points). Public data; the tabs' own loaders check that the reports are the visitor's. A profile the
 * API cannot answer just leaves the standing out.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const profile = await databaseApi.getResearcher({ request, context }, params.uuid ?? "").catch(() => null);
  return {
    standing: profile
      ? {
          points: profile.points,
          rank: profile.rank,
          vulnerabilities: profile.vulnerabilities,
          url: profile.url,
        }
      : null,
  };
}

/** `profile-tabs`: a researcher's reports, In review / Rejected / Published / Validated (spec §2, §4). */
export default function ProfileTabsLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const uuid = useParams().uuid ?? "";
  const tabs = profileTabs(uuid);
  const standing = loaderData?.standing ?? null;
  return (
    <>
      <PageHeader
        title={activeTab(tabs, pathname)?.heading ?? "My reports"}
        lead={
          standing && (
            <span data-testid="researcher-standing">
              {formatCount(standing.points)} {standing.points === 1 ? "point" : "points"} ·{" "}
              {standing.rank
                ? `rank #${formatCount(standing.rank)} on the leaderboard`
                : "not on the leaderboard yet"}{" "}
              · {formatCount(standing.vulnerabilities)} published{" "}
              {standing.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"} ·{" "}
              <a href={`/database/researchers/${encodeURIComponent(uuid)}`} className="link">
                Public profile
              </a>
            </span>
          )
        }
      />
      <TabNav label="Report status" tabs={tabs} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
