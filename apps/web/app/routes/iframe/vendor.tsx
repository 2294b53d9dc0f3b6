import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Report a vulnerability", "Report a security issue privately to this vendor.");

export default function VendorEmbedPage() {
  return (
    <PageHeader
      title="Report a vulnerability"
      lead="Found a security issue in one of this vendor's plugins or themes? Report it here: it reaches their security team privately, and you are credited when it is fixed and published."
    />
  );
}
