import { Link } from "react-router";
import { pageMeta } from "../lib/seo.ts";
import { PageHeader } from "../ui/page-header.tsx";

export const meta = pageMeta(
  "Create account",
  "Create a Pressguard account as a vendor or as a security researcher.",
);

export default function RegisterPage() {
  return (
    <>
      <PageHeader
        title="Create account"
        lead="Vendors open an account to run a disclosure program for their plugins and themes; researchers open one to report vulnerabilities and be credited for them."
      />
      <p className="text-sm text-slate-600">
        Already registered?{" "}
        <Link to="/vdp/login" className="link">
          Vendor login
        </Link>{" "}
        ·{" "}
        <Link to="/researchers/login" className="link">
          Researcher login
        </Link>
      </p>
    </>
  );
}
