import { Link } from "react-router";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Sign in with a link");

export default function MagicLinkPage() {
  return (
    <>
      <PageHeader
        title="Sign in with a link"
        lead="This one-time link signs you in. A link works once and for 15 minutes after it was sent."
      />
      <p className="text-sm text-slate-600">
        Link expired? Ask for a new one on the{" "}
        <Link to="/vdp/login" className="link">
          vendor
        </Link>{" "}
        or{" "}
        <Link to="/researchers/login" className="link">
          researcher
        </Link>{" "}
        login page.
      </p>
    </>
  );
}
