import { useNavigate } from "react-router";
import { VendorAccountForm } from "../../features/vendor-account/account-form.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import { useRootLoaderData } from "../../lib/public-config.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { programsPathFor } from "../../lib/session-user.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-vendor", "is-vendor-active"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Set up your vendor account",
  "Set up the vendor name, website, contacts and time zone that researchers and our triage team see.",
);

/** The first step after registering as a vendor; once saved, the programs (decision 006). */
export default function VendorCreateAccountPage() {
  const navigate = useNavigate();
  const activeCount = useRootLoaderData()?.user?.vendor?.active_count;
  return (
    <>
      <PageHeader
        eyebrow="Vendor account"
        title="Set up your vendor account"
        lead="Tell researchers and our triage team who you are: vendor name, website, contact e-mail, person of contact and time zone."
      />
      <VendorAccountForm
        submitLabel="Save and continue"
        defaultToBrowserTimeZone
        onSaved={() => navigate(programsPathFor(activeCount))}
      />
    </>
  );
}
