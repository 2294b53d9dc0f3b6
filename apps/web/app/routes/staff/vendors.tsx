import { StaffVendors } from "../../features/staff/vendors.tsx";
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

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Vendors", "Look up vendor accounts and change a vendor's plan by hand.");

export default function StaffVendorsPage() {
  return (
    <>
      <PageHeader
        title="Vendors"
        lead="Find a vendor by name or contact e-mail and change its plan by hand. The vendor's rules apply: a downgrade waits until the vendor has removed the seats and webhooks the plan does not include."
      />
      <StaffVendors />
    </>
  );
}
