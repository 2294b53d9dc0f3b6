import { AccountSecurity } from "../features/auth/account-security.tsx";
import { guardedLoader } from "../lib/guards.server.ts";
import type { RouteHandle } from "../lib/route-handle.ts";
import { pageMeta } from "../lib/seo.ts";
import { PageHeader } from "../ui/page-header.tsx";

/**
 * Issue 38: every signed-in account's own page, whatever its roles: sessions, API keys, the password,
 * two-factor sign-in and adding a role. A site owner (no vendor or researcher role) had none: the
 * account security lived only in the vendor and researcher settings, whose guards send them away.
 * The same parts as those settings pages (`AccountSecurity`), under the watchlists' menu.
 */
export const handle: RouteHandle = { guards: ["auth-user"], menu: "watchlists" };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Your account",
  "Manage how you sign in to Pressguard: open sessions, API keys, password and two-factor authentication.",
);

export default function AccountPage() {
  return (
    <>
      <PageHeader
        title="Your account"
        lead="Your open sessions, API keys, password and two-factor sign-in."
      />
      <AccountSecurity />
    </>
  );
}
