import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/create-account";

/** `create-account`: sign-up and onboarding forms, one wide card. */
function CreateAccountFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-100">
      <SiteHeader />
      <MainContent className="flex items-start justify-center px-4 py-12">
        <div className="w-full max-w-2xl rounded-xl border border-slate-200 bg-white p-8 shadow-sm sm:p-10">
          {children}
        </div>
      </MainContent>
      <SiteFooter />
    </div>
  );
}

export default function CreateAccountLayout() {
  return (
    <CreateAccountFrame>
      <Outlet />
    </CreateAccountFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <CreateAccountFrame>
      <ErrorScreen error={error} />
    </CreateAccountFrame>
  );
}
