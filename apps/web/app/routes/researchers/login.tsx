import { LoginForm } from "../../features/auth/login-form.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["guest-researcher"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Researcher login", "Sign in to submit vulnerability reports and follow them.");

export default function ResearcherLoginPage() {
  return (
    <>
      <PageHeader
        title="Researcher login"
        lead="Sign in with your e-mail and password, or ask for a one-time link, to submit reports and follow them from triage to publication."
      />
      <LoginForm />
      <p className="mt-6 text-sm text-slate-600">
        A plugin or theme vendor?{" "}
        <Link to="/vdp/login" className="link">
          Vendor login
        </Link>
      </p>
      <p className="mt-2 text-sm text-slate-600">
        No account yet?{" "}
        <Link to="/register" className="link">
          Create account
        </Link>
      </p>
    </>
  );
}
