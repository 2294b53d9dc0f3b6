import { ProductClaims } from "../../features/staff/claims.tsx";
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
export const meta = pageMeta(
  "Product claims",
  "Approve or reject vendors' claims to products of the vulnerability database.",
);

export default function StaffClaimsPage() {
  return (
    <>
      <PageHeader
        title="Product claims"
        lead="Vendors claiming a product of the database from a domain that does not match it (decision 006). Check that the vendor really makes the product before approving."
      />
      <ProductClaims />
    </>
  );
}
