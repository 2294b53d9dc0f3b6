import { REGISTRATION_ROLES } from "@pressguard/domain";
import { useSearchParams } from "react-router";
import { RegisterForm } from "../features/auth/register-form.tsx";
import { guardedLoader } from "../lib/guards.server.ts";
import type { RouteHandle } from "../lib/route-handle.ts";
import { pageMeta } from "../lib/seo.ts";
import { Link } from "../ui/link.tsx";
import { PageHeader } from "../ui/page-header.tsx";

/** For visitors only (issue 19): a signed-in user is sent to their start page, as on the login pages. */
export const handle: RouteHandle = { guards: ["guest-vendor"] };
export const loader = guardedLoader(handle);

export const meta = pageMeta(
  "Create account",
  "Create a Pressguard account as a vendor, a security researcher or a site owner.",
);

export default function RegisterPage() {
  const asked = useSearchParams()[0].get("role");
  const role = REGISTRATION_ROLES.find((value) => value === asked) ?? "vendor";
  return (
    <>
      <PageHeader
        title="Create account"
        lead="Vendors open an account to run a disclosure program for their plugins and themes; researchers open one to report vulnerabilities and be credited for them; site owners open one to be told when a plugin their sites run turns vulnerable."
      />
      <RegisterForm initialRole={role} />
      <p className="mt-6 text-sm text-slate-600">
        Already registered?{" "}
        <Link to="/vdp/login" className="link">
          Vendor login
        </Link>{" "}
        ·{" "}
        <Link to="/researchers/login" className="link">
          Researcher login
        </Link>{" "}
        · Site owners sign in on the{" "}
        <Link to="/vdp/login?redirect=%2Fwatchlists" className="link">
          vendor login
        </Link>
      </p>
    </>
  );
}
