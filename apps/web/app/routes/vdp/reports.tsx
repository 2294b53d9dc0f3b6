import type { VendorReportTab } from "@pressguard/domain";
import { useLocation } from "react-router";
import { VendorReportList } from "../../features/vendor-reports/report-list.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import { activeTab, REPORT_TABS } from "../../lib/navigation.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);

const TABS: Record<(typeof REPORT_TABS)[number]["to"], { tab: VendorReportTab; description: string }> = {
  "/vdp/reports/awaiting_fix": {
    tab: "awaiting_fix",
    description: "Validated reports on your products that wait for a fix, with the deadline for each.",
  },
  "/vdp/reports/fix_pending": {
    tab: "fix_pending",
    description: "Reports for which you submitted a fix that our team has not verified yet.",
  },
  "/vdp/reports/fixed": {
    tab: "fixed",
    description: "Reports whose fix is verified, ready for or already in public disclosure.",
  },
};

function tabOf(pathname: string) {
  return TABS[(activeTab(REPORT_TABS, pathname) ?? REPORT_TABS[0]).to];
}

/** The title falls back to the tab segment ("Awaiting Fix", "Fix Pending", "Fixed"); the description is the lead. */
export const meta = pageMeta(undefined, ({ location }) => tabOf(location.pathname).description);

/** Three routes share this module (awaiting_fix, fix_pending, fixed): PRODUCT.md §2's tab table. */
export default function VendorReportsPage() {
  const { tab, description } = tabOf(useLocation().pathname);
  return (
    <>
      <p className="mb-4 text-slate-600">{description}</p>
      <VendorReportList key={tab} tab={tab} />
    </>
  );
}
