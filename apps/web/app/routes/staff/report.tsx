import { ExploitationPanel } from "../../features/exploitation/exploitation-panel.tsx";
import { StaffReportDetail } from "../../features/staff/report-detail.tsx";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/report";

/** Staff only, with the second factor (PRODUCT.md §1, §7). */
export const handle: RouteHandle = {
  guards: ["user-role", "capability"],
  userRoles: ["staff"],
  capability: "triage",
};

export async function loader({ params, request, context }: Route.LoaderArgs) {
  await enforceGuards(handle, { request, context });
  return { id: params.uuid };
}

export const meta = pageMeta(
  "Report triage",
  "Triage one vulnerability report: its timeline, every comment and the actions that take it to its next state.",
);

/** The report loads in the browser (an unknown id is an in-page message, like the programs). */
export default function StaffReportPage({ loaderData }: Route.ComponentProps) {
  return (
    <StaffReportDetail
      key={loaderData.id}
      id={loaderData.id}
      exploitation={(report) => <ExploitationPanel reportId={report.id} heading={false} />}
    />
  );
}
