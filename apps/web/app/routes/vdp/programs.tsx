import { useLocation } from "react-router";
import { ProgramList } from "../../features/programs/program-list.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import { activeTab, PROGRAM_TABS } from "../../lib/navigation.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);

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

/** The tab's fixed filter (spec §4) decides the list; the data loads in the browser and stays cached. */
export default function ProgramsPage() {
  const tab = tabOf(useLocation().pathname);
  return (
    <>
      <p className="mb-4 text-slate-600">{DESCRIPTIONS[tab.filter]}</p>
      <ProgramList key={tab.filter} filter={tab.filter} />
    </>
  );
}
