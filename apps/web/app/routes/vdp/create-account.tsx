import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["auth-vendor", "is-vendor-active"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Set up your vendor account");

export default function VendorCreateAccountPage() {
  return (
    <PageHeader
      eyebrow="Vendor account"
      title="Set up your vendor account"
      lead="Tell researchers and our triage team who you are: vendor name, website, contact e-mail, person of contact and time zone."
    />
  );
}
