import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Report preview");

export default function ReportPreviewPage() {
  return (
    <PageHeader
      title="Report preview"
      lead="The full report: affected product and versions, description, proof of concept, and where it stands in the disclosure process."
    />
  );
}
