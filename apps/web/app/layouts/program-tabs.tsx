import { Outlet, useLoaderData, useLocation } from "react-router";
import { ActivationModal } from "../features/programs/activation-modal.tsx";
import { readProgramDetailsSeed } from "../features/programs/program.server.ts";
import { ProgramCounters } from "../features/programs/program-counters.tsx";
import { enforceGuards } from "../lib/guards.server.ts";
import { activeTab, PROGRAM_TABS } from "../lib/navigation.ts";
import type { RouteHandle } from "../lib/route-handle.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { Link } from "../ui/link.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/program-tabs";

/**
 * Each tab's own guard (spec §6), enforced here too: the counters are read only for a visitor it
 * lets through. An anonymous visit (a crawler: robots.txt opens the three tabs) or a researcher is
 * sent on without a read.
 */
export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** The counters, read on the server for the page to show them at once. */
export async function loader(args: Route.LoaderArgs) {
  await enforceGuards(handle, args);
  return { details: await readProgramDetailsSeed(args) };
}

/**
 * `program-tabs`: the vendor's program lists, All / Open / Pending (spec §2, §4), under the counters
 * of all the vendor's programs; the activation modal opens over them when it applies.
 */
export default function ProgramTabsLayout() {
  const { pathname } = useLocation();
  const tab = activeTab(PROGRAM_TABS, pathname);
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title={tab?.heading ?? "Programs"}
        actions={
          <Link to="/vdp/start-program" className="btn-primary">
            Start a program
          </Link>
        }
      />
      <ProgramCounters seed={data?.details ?? null} />
      <TabNav label="Program lists" tabs={PROGRAM_TABS} />
      <Outlet />
      <ActivationModal />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
