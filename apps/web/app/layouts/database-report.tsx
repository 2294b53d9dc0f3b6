import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { Link } from "../ui/link.tsx";
import type { Route } from "./+types/database-report";

/** `database-report`: the report submission flow of the public database, one narrow column. */
function DatabaseReportFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <MainContent className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
        <p className="mb-6 text-sm">
          <Link
            to="/database"
            className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline"
          >
            ← Vulnerability database
          </Link>
        </p>
        {children}
      </MainContent>
      <SiteFooter attribution />
    </div>
  );
}

export default function DatabaseReportLayout() {
  return (
    <DatabaseReportFrame>
      <Outlet />
    </DatabaseReportFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <DatabaseReportFrame>
      <ErrorScreen error={error} />
    </DatabaseReportFrame>
  );
}
