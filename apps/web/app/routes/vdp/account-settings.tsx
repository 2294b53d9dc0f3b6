import { AccountSecurity } from "../../features/auth/account-security.tsx";
import { VendorAccountForm } from "../../features/vendor-account/account-form.tsx";
import { LeaveOrganisation } from "../../features/vendor-team/leave-organisation.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Panel } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.ts";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Account settings",
  "Edit your vendor name, website and contacts, and manage your password, two-factor sign-in, sessions and API keys.",
);

export default function AccountSettingsPage() {
  return (
    <>
      <Panel>
        <h2 className="text-lg font-semibold text-slate-900">Vendor account</h2>
        <p className="mt-1 mb-6 text-sm text-slate-600">
          Your vendor name, website, contact e-mail, person of contact and time zone, as researchers and our
          triage team see them.
        </p>
        <VendorAccountForm
          submitLabel="Save settings"
          onSaved={() => void toast.success("Account settings saved.")}
        />
      </Panel>
      <AccountSecurity />
      <LeaveOrganisation />
    </>
  );
}
