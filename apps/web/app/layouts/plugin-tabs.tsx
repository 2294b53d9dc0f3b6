import { Link, Outlet, useLocation } from "react-router";
import {
  KIND_LABELS,
  PLATFORM_LABELS,
  productNameFromSlug,
  requireProductPath,
} from "../lib/database-params.ts";
import { activeTab, pluginTabs } from "../lib/navigation.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/plugin-tabs";

/**
 * `plugin-tabs`: one product of the public database, with the tabs Product vulnerabilities /
 * Security policy / Contributors. An unknown platform or kind is a 404.
 */
export function loader({ params }: Route.LoaderArgs) {
  const { platform, kind } = requireProductPath(params);
  const product = params.product ?? "";
  return {
    platform,
    kind,
    product,
    productName: productNameFromSlug(product),
    label: `${PLATFORM_LABELS[platform]} ${KIND_LABELS[kind]}`,
  };
}

export default function PluginTabsLayout({ loaderData }: Route.ComponentProps) {
  const { platform, kind, product, productName, label } = loaderData;
  const { pathname } = useLocation();
  const tabs = pluginTabs(platform, kind, product);
  const tab = activeTab(tabs, pathname);
  return (
    <>
      <PageHeader
        eyebrow={label}
        title={tab ? `${productName} — ${tab.heading}` : productName}
        actions={
          <Link
            to={`/database/report/${platform}/${kind}/${encodeURIComponent(product)}`}
            className="btn-primary"
          >
            Report a vulnerability
          </Link>
        }
      />
      <TabNav label={`${productName} sections`} tabs={tabs} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
