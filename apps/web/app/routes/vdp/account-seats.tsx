import { SeatsPanel } from "../../features/vendor-team/seats-panel.tsx";
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
  "Seats",
  "Invite colleagues to your vendor team, change their roles and free the seats you no longer need.",
);

export default function AccountSeatsPage() {
  return <SeatsPanel />;
}
