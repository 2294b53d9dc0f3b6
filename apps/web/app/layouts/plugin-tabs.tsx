import { Outlet, useLocation } from "react-router";
import { databaseApi } from "../features/database/api.server.ts";
import { ProductFacts } from "../features/database/product-facts.tsx";
import { KIND_LABELS, PLATFORM_LABELS, requireProductPath } from "../lib/database-params.ts";
import { activeTab, pluginTabs } from "../lib/navigation.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { Link } from "../ui/link.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/plugin-tabs";

/**
 * `plugin-tabs`: one product of the public database, with the tabs Product vulnerabilities /
 * Security policy / Contributors. An unknown platform, kind or product is a 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { platform, kind } = requireProductPath(params);
  const product = await databaseApi.getProduct({ request, context }, platform, kind, params.product ?? "");
  return { platform, kind, product, label: `${PLATFORM_LABELS[platform]} ${KIND_LABELS[kind]}` };
}

export default function PluginTabsLayout({ loaderData }: Route.ComponentProps) {
  const { platform, kind, product, label } = loaderData;
  const { pathname } = useLocation();
  const tabs = pluginTabs(platform, kind, product.slug);
  const tab = activeTab(tabs, pathname);
  return (
    <>
      <PageHeader
        eyebrow={label}
        title={tab ? `${product.name} — ${tab.heading}` : product.name}
        lead={
          <>
            {product.counters.vulnerabilities} known{" "}
            {product.counters.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"}:{" "}
            {product.counters.present} present, {product.counters.fixed} fixed.{" "}
            <a
              href={`/database/${platform}/${kind}/${encodeURIComponent(product.slug)}/feed`}
              type="application/atom+xml"
              className="link"
            >
              Atom feed
            </a>
            {product.directory_url && (
              <>
                {" "}
                <a href={product.directory_url} className="link">
                  WordPress.org page
                </a>
              </>
            )}
          </>
        }
        actions={
          <Link
            to={`/database/report/${platform}/${kind}/${encodeURIComponent(product.slug)}`}
            className="btn-primary"
          >
            Report a vulnerability
          </Link>
        }
      />
      <ProductFacts product={product} />
      <TabNav label={`${product.name} sections`} tabs={tabs} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
