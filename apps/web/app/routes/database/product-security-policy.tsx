import { productNameFromSlug } from "../../lib/database-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Panel } from "../../ui/page-header.tsx";

export const meta = pageMeta(({ params }) => `${productNameFromSlug(params.product ?? "")} security policy`);

export default function ProductSecurityPolicyPage() {
  return (
    <Panel>
      How to report a vulnerability in this product, what is in scope, and how quickly the vendor answers and
      fixes reports.
    </Panel>
  );
}
