import { Outlet, useLocation } from "react-router";
import { activeTab, REPORT_TABS } from "../lib/navigation.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TabNav } from "../ui/tab-nav.tsx";
import type { Route } from "./+types/report-tabs";

/** `report-tabs`: the vendor's reports, Awaiting fix / Fix pending / Fixed (spec §2, §4). */
export default function ReportTabsLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title={activeTab(REPORT_TABS, pathname)?.heading ?? "Reports"} />
      <TabNav label="Report status" tabs={REPORT_TABS} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />;
}
