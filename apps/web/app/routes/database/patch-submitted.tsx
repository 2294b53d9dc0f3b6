import { Link } from "react-router";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Patch submitted");

export default function PatchSubmittedPage() {
  return (
    <>
      <PageHeader
        title="Patch submitted"
        lead="Thank you. The fix is checked against the report, and the vulnerability record is updated once it is confirmed."
      />
      <Link to="/database" className="btn-secondary">
        Back to the database
      </Link>
    </>
  );
}
