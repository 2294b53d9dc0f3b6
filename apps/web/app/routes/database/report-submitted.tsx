import { Link } from "react-router";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Report submitted");

export default function ReportSubmittedPage() {
  return (
    <>
      <PageHeader
        title="Report submitted"
        lead="Thank you. A confirmation e-mail with a private link to follow your report is on its way."
      />
      <Link to="/database" className="btn-secondary">
        Back to the database
      </Link>
    </>
  );
}
