import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/login";

/** `login`: the sign-in pages, one centred card. */
function LoginFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-100">
      <SiteHeader />
      <MainContent className="flex items-start justify-center px-4 py-12 sm:py-20">
        <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
          {children}
        </div>
      </MainContent>
      <SiteFooter />
    </div>
  );
}

export default function LoginLayout() {
  return (
    <LoginFrame>
      <Outlet />
    </LoginFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <LoginFrame>
      <ErrorScreen error={error} />
    </LoginFrame>
  );
}
