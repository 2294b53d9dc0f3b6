import { ForwardingPanel } from "../../features/report-forwarding/forwarding-panel.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";

export const handle: RouteHandle = {
  guards: ["auth-vendor", "user-role", "capability"],
  userRoles: ["owner", "admin"],
  capability: "manage-vendor",
};

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Report forwarding",
  "Send the events of your vulnerability reports on to another e-mail address or to a webhook of your own system.",
);

export default function AccountForwardReportsPage() {
  return <ForwardingPanel />;
}
