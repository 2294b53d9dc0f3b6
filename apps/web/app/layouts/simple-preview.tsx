import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { Logo } from "../ui/logo.tsx";
import type { Route } from "./+types/simple-preview";

/** `simple-preview`: a read-only preview opened from a link with a token; a slim bar, no menus. */
function SimplePreviewFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header data-theme="dark" className="bg-slate-950 text-white">
        <div className="page-container flex h-14 items-center justify-between">
          <Logo />
          <span className="rounded-full border border-white/20 px-3 py-1 text-xs font-medium text-slate-300">
            Preview
          </span>
        </div>
      </header>
      <MainContent className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6">{children}</MainContent>
    </div>
  );
}

export default function SimplePreviewLayout() {
  return (
    <SimplePreviewFrame>
      <Outlet />
    </SimplePreviewFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <SimplePreviewFrame>
      <ErrorScreen error={error} />
    </SimplePreviewFrame>
  );
}
