import { databaseApi } from "../../features/database/api.server.ts";
import { productFeeds } from "../../features/database/feeds.ts";
import { databasePaths } from "../../features/database/paths.ts";
import { requireProductPath } from "../../lib/database-params.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { Panel } from "../../ui/page-header.tsx";
import type { Route } from "./+types/product-contributors";

/** Spec §4: the contributors load separately from the product's vulnerabilities. */

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { platform, kind } = requireProductPath(params);
  const product = await databaseApi.getProduct({ request, context }, platform, kind, params.product ?? "");
  const contributors = await databaseApi.getProductContributors({ request, context }, product.id);
  return { product, contributors: contributors.data };
}

export const meta = pageMeta(
  ({ matches }) => `${productNameOf(matches) ?? "Product"} security contributors`,
  ({ matches }) =>
    `The researchers credited with vulnerabilities in ${productNameOf(matches) ?? "this product"}.`,
  ({ params, matches }) => productFeeds(params, productNameOf(matches)),
);

function productNameOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const data = matches.find((match) => match?.id === "routes/database/product-contributors")?.loaderData;
  return (data as { product?: { name: string } } | undefined)?.product?.name;
}

export default function ProductContributorsPage({ loaderData }: Route.ComponentProps) {
  const { contributors } = loaderData;
  if (contributors.length === 0) {
    return <Panel>No researcher is credited on this product's vulnerabilities yet.</Panel>;
  }
  return (
    <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-left text-sm shadow-sm">
      <caption className="sr-only">Researchers credited on this product's vulnerabilities</caption>
      <thead className="bg-slate-50 text-slate-700">
        <tr>
          <th scope="col" className="px-4 py-2">
            Researcher
          </th>
          <th scope="col" className="px-4 py-2 text-right">
            Vulnerabilities
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200">
        {contributors.map((contributor) => (
          <tr key={contributor.uuid}>
            <td className="px-4 py-2">
              <Link to={databasePaths.researcher(contributor.uuid)} className="link">
                {contributor.display_name}
              </Link>
            </td>
            <td className="px-4 py-2 text-right">{contributor.vulnerabilities}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
