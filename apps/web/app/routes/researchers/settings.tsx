import { AccountSecurity } from "../../features/auth/account-security.tsx";
import { publicProfilePath } from "../../features/researcher-profile/api.ts";
import { ResearcherProfileForm } from "../../features/researcher-profile/profile-form.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader, Panel } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.ts";

export const handle: RouteHandle = { guards: ["auth-researcher"], menu: "researcher" };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Account settings",
  "Edit your public researcher profile and manage your password, two-factor sign-in, sessions and API keys.",
);

export default function ResearcherSettingsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Researcher"
        title="Account settings"
        lead="Your public profile, your password, two-factor sign-in and open sessions."
      />
      <Panel>
        <h2 className="text-lg font-semibold text-slate-900">Public profile</h2>
        <p className="mt-1 mb-6 text-sm text-slate-600">
          Your display name, country, website, social handles and bio, as everyone sees them on your public
          profile and the leaderboards.
        </p>
        <ResearcherProfileForm
          submitLabel="Save profile"
          onSaved={() => void toast.success("Profile saved.")}
          footer={(profile) => (
            <Link to={publicProfilePath(profile.uuid)} className="link text-sm" reloadDocument>
              View your public profile
            </Link>
          )}
        />
      </Panel>
      <AccountSecurity />
    </>
  );
}
