import { StaffDataSources } from "../../features/staff/data-sources.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

/** Staff only, with the second factor (PRODUCT.md §1, §7). */
export const handle: RouteHandle = {
  guards: ["user-role", "capability"],
  userRoles: ["staff"],
  capability: "triage",
};

export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Data sources",
  "See the state of each upstream vulnerability feed that keeps the database current, and sync one at once.",
);

export default function StaffDataSourcesPage() {
  return (
    <>
      <PageHeader
        title="Data sources"
        lead="The upstream feeds that keep the database current: whether each is switched on, when it last synced, what its last run brought, and its last error. Each syncs on its own schedule; “Sync now” runs one at once."
      />
      <StaffDataSources />
    </>
  );
}
