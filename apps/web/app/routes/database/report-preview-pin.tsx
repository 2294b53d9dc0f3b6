import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Enter the report PIN");

export default function ReportPreviewPinPage() {
  return (
    <PageHeader
      title="Enter the report PIN"
      lead="This report is protected by a PIN sent together with its link. Enter the PIN to open the report."
    />
  );
}
