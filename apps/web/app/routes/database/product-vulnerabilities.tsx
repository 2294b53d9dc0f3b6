import { useLocation } from "react-router";
import { databaseApi } from "../../features/database/api.server.ts";
import { productFeeds } from "../../features/database/feeds.ts";
import { PackageIdentifierList } from "../../features/database/package-identifiers.tsx";
import { PaginationNav } from "../../features/database/pagination-nav.tsx";
import { VulnerabilityList } from "../../features/database/vulnerability-list.tsx";
import { requireProductPath } from "../../lib/database-params.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import type { Route } from "./+types/product-vulnerabilities";

const TABS = [
  { value: "present", label: "Present", empty: "No known vulnerability without a fix." },
  { value: "fixed", label: "Fixed", empty: "No vulnerability fixed in a released version yet." },
] as const;
type Tab = (typeof TABS)[number]["value"];

/** Spec §4: present and fixed tabs, paginated through the product API (`?tab=fixed&page=2` in the URL). */

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { platform, kind } = requireProductPath(params);
  const search = new URL(request.url).searchParams;
  const tab: Tab = search.get("tab") === "fixed" ? "fixed" : "present";
  const pageParam = search.get("page") ?? "";
  const page = /^\d{1,6}$/.test(pageParam) && Number(pageParam) >= 1 ? Number(pageParam) : 1;
  const product = await databaseApi.getProduct({ request, context }, platform, kind, params.product ?? "");
  const list = await databaseApi.getProductVulnerabilities({ request, context }, product.id, tab, page);
  return { product, tab, list };
}

export const meta = pageMeta(
  ({ matches }) => `${productNameOf(matches) ?? "Product"} vulnerabilities`,
  ({ matches }) =>
    `Known vulnerabilities of ${productNameOf(matches) ?? "this product"}: affected and fixed versions, severity and CVE ids.`,
  ({ params, matches }) => productFeeds(params, productNameOf(matches)),
);

function productNameOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const data = matches.find((match) => match?.id === "routes/database/product-vulnerabilities")?.loaderData;
  return (data as { product?: { name: string } } | undefined)?.product?.name;
}

export default function ProductVulnerabilitiesPage({ loaderData }: Route.ComponentProps) {
  const { product, tab, list } = loaderData;
  const { pathname } = useLocation();
  const current = TABS.find((item) => item.value === tab) ?? TABS[0];
  const hrefFor = (value: Tab, page = 1) => {
    const search = new URLSearchParams();
    if (value !== "present") search.set("tab", value);
    if (page > 1) search.set("page", String(page));
    const query = search.toString();
    return `${pathname}${query ? `?${query}` : ""}`;
  };
  return (
    <section aria-labelledby="vulnerability-tabs">
      <h2 id="vulnerability-tabs" className="sr-only">
        {current.label} vulnerabilities
      </h2>
      <ul className="mb-4 flex gap-2" aria-label="Status">
        {TABS.map((item) => (
          <li key={item.value}>
            <Link
              to={hrefFor(item.value)}
              aria-current={item.value === tab ? "page" : undefined}
              className={`inline-flex rounded-full px-4 py-1.5 text-sm font-medium ${
                item.value === tab
                  ? "bg-slate-900 text-white"
                  : "bg-slate-100 text-slate-700 hover:bg-slate-200"
              }`}
            >
              {item.label} ({item.value === "present" ? product.counters.present : product.counters.fixed})
            </Link>
          </li>
        ))}
      </ul>
      <VulnerabilityList items={list.data} empty={current.empty} showProduct={false} />
      <PaginationNav pagination={list.pagination} hrefFor={(page) => hrefFor(tab, page)} />
      <PackageIdentifierList identifiers={product.identifiers} />
    </section>
  );
}
