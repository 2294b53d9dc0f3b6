import { TwoFactorSettings } from "../../features/auth/account-security.tsx";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader, Panel } from "../../ui/page-header.tsx";
import type { Route } from "./+types/two-factor";

/** Any staff account: the one staff page that does not need the second factor yet. */
export const handle: RouteHandle = { guards: ["user-role"], userRoles: ["staff"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await enforceGuards(handle, { request, context });
  return { enabled: user?.two_factor_enabled === true };
}

export const meta = pageMeta(
  "Set up two-factor authentication",
  "Set up the authenticator-app code that staff accounts need to open the triage area.",
);

/**
 * PRODUCT.md §7: staff must sign in with a second factor. The capability guard sends staff without
 * one here, and the staff API refuses them (403) until it is on.
 */
export default function StaffTwoFactorPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Set up two-factor authentication"
        lead={
          loaderData.enabled
            ? "Two-factor authentication is on for your account: the triage area is open to you."
            : "Staff accounts open reports that are not public yet, so the triage area needs a code from an authenticator app on top of your password. Set it up below, then open the reports queue."
        }
      />
      <Panel>
        <TwoFactorSettings />
        <p className="mt-6 border-t border-slate-200 pt-4 text-sm">
          <Link to="/staff/reports" className="link">
            Go to the reports queue
          </Link>
        </p>
      </Panel>
    </>
  );
}
