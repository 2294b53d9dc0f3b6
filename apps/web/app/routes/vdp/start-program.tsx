import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Start a program");

export default function StartProgramPage() {
  return (
    <PageHeader
      eyebrow="Programs"
      title="Start a program"
      lead="Add a plugin or theme to run a vulnerability disclosure program for it, one at a time or many at once from a CSV file."
    />
  );
}
