import { productNameFromSlug } from "../../lib/database-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Section } from "../../ui/page-header.tsx";

export const meta = pageMeta(({ params }) => `${productNameFromSlug(params.product ?? "")} vulnerabilities`);

export default function ProductVulnerabilitiesPage() {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Section title="Present">
        Vulnerabilities that affect the latest version of this product, newest first, with the affected
        versions and severity.
      </Section>
      <Section title="Fixed">
        Vulnerabilities fixed in a released version, with the version that fixes each one.
      </Section>
    </div>
  );
}
