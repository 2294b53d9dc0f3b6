import { productNameFromSlug } from "../../lib/database-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Panel } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  ({ params }) => `${productNameFromSlug(params.product ?? "")} security contributors`,
);

export default function ProductContributorsPage() {
  return (
    <Panel>
      The researchers credited with vulnerabilities found in this product, and how many each reported.
    </Panel>
  );
}
