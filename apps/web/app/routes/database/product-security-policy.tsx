import { useRouteLoaderData } from "react-router";
import { productFeeds } from "../../features/database/feeds.ts";
import { SecurityPolicy } from "../../features/programs/security-policy.tsx";
import type { loader as pluginTabsLoader } from "../../layouts/plugin-tabs.tsx";
import { productNameFromSlug } from "../../lib/database-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { Panel } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  ({ params }) => `${productNameFromSlug(params.product ?? "")} security policy`,
  ({ params }) =>
    `How to report a security vulnerability in ${productNameFromSlug(params.product ?? "")}, and whether its vendor runs a disclosure program.`,
  ({ params, matches }) => productFeeds(params, productNameOf(matches)),
);

function productNameOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const data = matches.find((match) => match?.id === "layouts/plugin-tabs")?.loaderData;
  return (data as { product?: { name: string } } | undefined)?.product?.name;
}

/** The program's policy, or a clear "no program" state with a link to report (issue 5). */
export default function ProductSecurityPolicyPage() {
  const data = useRouteLoaderData<typeof pluginTabsLoader>("layouts/plugin-tabs");
  const product = data?.product;
  const productPath = data ? `${data.platform}/${data.kind}/${encodeURIComponent(data.product.slug)}` : null;
  const reportPath = productPath ? `/database/report/${productPath}` : "/database/report";
  if (data && product?.program) {
    return (
      <SecurityPolicy
        product={product}
        program={product.program}
        reportPath={reportPath}
        securityTxtPath={`/database/${productPath}/security.txt`}
      />
    );
  }
  if (product?.is_active) {
    // An active product without its program's details (an older API answer): the short statement.
    return (
      <Panel>
        {product.name} runs a vulnerability disclosure program on Pressguard: reports are forwarded to the
        vendor, who fixes them under the program's deadlines.{" "}
        <Link to={reportPath} className="link">
          Report a vulnerability
        </Link>
      </Panel>
    );
  }
  return (
    <Panel>
      <p className="font-semibold text-slate-900">No vulnerability disclosure program</p>
      <p className="mt-2">
        The vendor of {product?.name ?? "this product"} has no program on Pressguard yet. You can still report
        a vulnerability: we verify it and contact the vendor for you.
      </p>
      <p className="mt-4">
        <Link to={reportPath} className="btn-primary">
          Report a vulnerability
        </Link>
      </p>
    </Panel>
  );
}
