import { useSearchParams } from "react-router";
import { queueStatusOf, ReportQueue } from "../../features/staff/report-queue.tsx";
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
  "Reports queue",
  "Triage incoming vulnerability reports by state: review and validate them, follow the vendor's fix and publish.",
);

/** The triage queue (issue 7): the filter is the `status` search parameter, read leniently. */
export default function StaffReportsPage() {
  const [search] = useSearchParams();
  const status = queueStatusOf(search);
  return (
    <>
      <PageHeader
        title="Reports queue"
        lead="Reports by state, newest first: take new ones into review, validate them, follow the vendor's fix and publish."
      />
      <ReportQueue key={status ?? "all"} status={status} />
    </>
  );
}
