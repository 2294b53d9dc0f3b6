import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Panel } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-vendor"] };
export const meta = pageMeta("Seats");

export default function AccountSeatsPage() {
  return (
    <Panel>The members of your team: invite colleagues, and choose who can read and handle reports.</Panel>
  );
}
