import { Outlet, useLocation } from "react-router";
import { useIdentity } from "../lib/identity.ts";
import { activeTab, SETTINGS_TABS, visibleTo } from "../lib/navigation.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/settings-tabs";

/**
 * `settings-tabs`: the vendor account, Settings / Seats / Subscription / Report forwarding; members
 * see Settings only (the other pages are for owners and admins, PRODUCT.md §4).
 */
export default function SettingsTabsLayout() {
  const { pathname } = useLocation();
  const user = useIdentity().user;
  return (
    <>
      <PageHeader title={activeTab(SETTINGS_TABS, pathname)?.heading ?? "Account"} />
      <TabNav label="Account" tabs={visibleTo(SETTINGS_TABS, user)} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
