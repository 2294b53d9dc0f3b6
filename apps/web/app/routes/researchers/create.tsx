import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-researcher"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Create your researcher profile");

export default function ResearcherCreatePage() {
  return (
    <PageHeader
      eyebrow="Researcher profile"
      title="Create your researcher profile"
      lead="Choose the display name, country and links shown on your public profile and on the leaderboard when your findings are published."
    />
  );
}
