import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "Report a vulnerability",
  "Report a vulnerability in a WordPress plugin, theme or core.",
);

export default function ReportPage() {
  return (
    <PageHeader
      title="Report a vulnerability"
      lead="Describe the vulnerability, the affected product and versions, and how to reproduce it. The report reaches the vendor privately, and you are credited when it is published."
    />
  );
}
