import { Outlet, useLocation } from "react-router";
import { activeTab, SETTINGS_TABS } from "../lib/navigation.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/settings-tabs";

/** `settings-tabs`: the vendor account, Settings / Seats / Subscription / Report forwarding. */
export default function SettingsTabsLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title={activeTab(SETTINGS_TABS, pathname)?.heading ?? "Account"} />
      <TabNav label="Account" tabs={SETTINGS_TABS} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
