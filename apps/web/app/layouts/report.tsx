import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/report";

/** `report`: a single report opened by its link (and PIN), with a confidentiality notice. */
function ReportFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <div className="border-b border-amber-200 bg-amber-50">
        <p className="page-container py-2 text-sm text-amber-900">
          Confidential: this report is not public. Do not share its link or PIN.
        </p>
      </div>
      <MainContent className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6">{children}</MainContent>
      <SiteFooter />
    </div>
  );
}

export default function ReportLayout() {
  return (
    <ReportFrame>
      <Outlet />
    </ReportFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ReportFrame>
      <ErrorScreen error={error} />
    </ReportFrame>
  );
}
