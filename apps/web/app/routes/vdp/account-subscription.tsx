import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Panel } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-vendor"] };
export const meta = pageMeta("Subscription");

export default function AccountSubscriptionPage() {
  return <Panel>Your plan (Free or Paid), what it includes, and your billing period and invoices.</Panel>;
}
