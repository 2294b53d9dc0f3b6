import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["check-token-researcher"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Report preview");

export default function ResearcherReportPreviewPage() {
  return (
    <PageHeader
      eyebrow="Researcher preview"
      title="Report preview"
      lead="A read-only view of your report as the vendor receives it, opened through a secure link."
    />
  );
}
