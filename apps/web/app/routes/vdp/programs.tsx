import { useLoaderData, useLocation } from "react-router";
import { readProgramListSeed } from "../../features/programs/program.server.ts";
import { ProgramList } from "../../features/programs/program-list.tsx";
import { enforceGuards } from "../../lib/guards.server.ts";
import { activeTab, PROGRAM_TABS } from "../../lib/navigation.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/programs";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

/**
 * Spec §6: the guards named in `handle`, enforced before the page renders; then the tab's first page,
 * which the page renders on the server (the browser's list query starts from it).
 */
export async function loader(args: Route.LoaderArgs) {
  await enforceGuards(handle, args);
  return { list: await readProgramListSeed(args, tabOf(new URL(args.request.url).pathname).filter) };
}

const TITLES: Record<string, string> = {
  all: "All programs",
  open: "Open programs",
  pending: "Pending programs",
};

/** The page's lead and its meta description. */
const DESCRIPTIONS: Record<(typeof PROGRAM_TABS)[number]["filter"], string> = {
  "all-active": "Every product with an active disclosure program, with its plan and open reports.",
  "open-reports": "Programs with reports that wait for your answer.",
  "vdp-pending": "Products added but not yet activated: activate one to start receiving reports for it.",
};

function tabOf(pathname: string) {
  return activeTab(PROGRAM_TABS, pathname) ?? PROGRAM_TABS[0];
}

/** Three routes share this module (all, open, pending): the tab is the last path segment. */
export const meta = pageMeta(
  ({ location }) => TITLES[location.pathname.split("/").filter(Boolean).pop() ?? ""],
  ({ location }) => DESCRIPTIONS[tabOf(location.pathname).filter],
);

/** The tab's fixed filter (spec §4) decides the list; once loaded it stays cached in the browser. */
export default function ProgramsPage() {
  const tab = tabOf(useLocation().pathname);
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-4 text-slate-600">{DESCRIPTIONS[tab.filter]}</p>
      <ProgramList key={tab.filter} filter={tab.filter} firstPage={data?.list ?? null} />
    </>
  );
}
