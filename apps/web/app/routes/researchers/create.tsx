import { redirect, useNavigate } from "react-router";
import { ResearcherProfileForm } from "../../features/researcher-profile/profile-form.tsx";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { researcherReportsPath } from "../../lib/session-user.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/create";

export const handle: RouteHandle = { guards: ["auth-researcher"] };

/**
 * Spec §6: the guards named in `handle`; then, like is-vendor-active for vendors (decision 010), a
 * researcher whose profile is already saved goes on to their reports.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await enforceGuards(handle, { request, context });
  const researcher = user?.researcher;
  if (researcher?.profile_completed === true) throw redirect(researcherReportsPath(researcher.uuid));
  return null;
}
export const meta = pageMeta(
  "Create your researcher profile",
  "Create the public profile shown with your published vulnerabilities and on the researcher leaderboard.",
);

/** The first step after registering as a researcher; once saved, the reports in review. */
export default function ResearcherCreatePage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        eyebrow="Researcher profile"
        title="Create your researcher profile"
        lead="Choose the display name, country and links shown on your public profile and on the leaderboard when your findings are published."
      />
      <ResearcherProfileForm
        submitLabel="Save and continue"
        onSaved={(profile) => navigate(researcherReportsPath(profile.uuid))}
      />
    </>
  );
}
