import { useLocation } from "react-router";
import { guardedLoader } from "../../lib/guards.server.ts";
import { activeTab, REPORT_TABS } from "../../lib/navigation.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { Panel } from "../../ui/page-header.tsx";

// No meta of its own: the title falls back to the tab segment ("Awaiting Fix", "Fix Pending", "Fixed").
export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);

const DESCRIPTIONS: Record<(typeof REPORT_TABS)[number]["to"], string> = {
  "/vdp/reports/awaiting_fix": "Validated reports on your products that wait for a fix, the oldest first.",
  "/vdp/reports/fix_pending":
    "Reports for which you announced a fix that is not released or not yet confirmed.",
  "/vdp/reports/fixed":
    "Reports whose fix is released and confirmed, ready for or already in public disclosure.",
};

/** Three routes share this module (awaiting_fix, fix_pending, fixed). */
export default function VendorReportsPage() {
  const tab = activeTab(REPORT_TABS, useLocation().pathname) ?? REPORT_TABS[0];
  return <Panel>{DESCRIPTIONS[tab.to]}</Panel>;
}
