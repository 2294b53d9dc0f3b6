import { AccountSecurity } from "../../features/auth/account-security.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-researcher"], menu: "researcher" };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Account settings");

export default function ResearcherSettingsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Researcher"
        title="Account settings"
        lead="Your public profile (display name, country, website, social handles, bio and avatar), your password, two-factor sign-in and open sessions."
      />
      <AccountSecurity />
    </>
  );
}
