import { LoginForm } from "../../features/auth/login-form.tsx";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export const handle: RouteHandle = { guards: ["guest-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta("Vendor login", "Sign in to manage your vulnerability disclosure programs.");

export default function VendorLoginPage() {
  return (
    <>
      <PageHeader
        title="Vendor login"
        lead="Sign in with your e-mail and password, or ask for a one-time link, to manage your programs and the reports researchers send you."
      />
      <LoginForm />
      <p className="mt-6 text-sm text-slate-600">
        A security researcher?{" "}
        <Link to="/researchers/login" className="link">
          Researcher login
        </Link>
      </p>
      <p className="mt-2 text-sm text-slate-600">
        Watching your sites' plugins? Site owners sign in here too.
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
