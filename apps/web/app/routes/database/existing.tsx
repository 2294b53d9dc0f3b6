import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Submit a known vulnerability");

export default function ExistingVulnerabilityPage() {
  return (
    <PageHeader
      eyebrow="Public database"
      title="Submit a known vulnerability"
      lead="A vulnerability that is already public elsewhere (a CVE, an advisory, a changelog entry) but missing here: send us its reference and we add it to the database."
    />
  );
}
