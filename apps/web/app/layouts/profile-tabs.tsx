import { Outlet, useLocation, useParams } from "react-router";
import { activeTab, profileTabs } from "../lib/navigation.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/profile-tabs";

/** `profile-tabs`: a researcher's reports, In review / Rejected / Published / Validated (spec §2, §4). */
export default function ProfileTabsLayout() {
  const { pathname } = useLocation();
  const tabs = profileTabs(useParams().uuid ?? "");
  return (
    <>
      <PageHeader title={activeTab(tabs, pathname)?.heading ?? "My reports"} />
      <TabNav label="Report status" tabs={tabs} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
