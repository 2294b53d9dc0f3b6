import { SubscriptionOverview } from "../../features/vendor-subscription/subscription-overview.tsx";
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
  "Subscription",
  "Compare the plans, see how much of your current plan your team uses, and find your invoices.",
);

export default function AccountSubscriptionPage() {
  return <SubscriptionOverview />;
}
