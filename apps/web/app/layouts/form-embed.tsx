import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { LogoMark } from "../ui/logo.tsx";
import type { Route } from "./+types/form-embed";

/** `form-embed`: a form shown in an iframe on a vendor's site; only a small "secured by" line. */
function FormEmbedFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <MainContent className="w-full px-4 py-6 sm:px-6">{children}</MainContent>
      <footer className="flex items-center justify-center gap-2 border-t border-slate-200 px-4 py-3 text-xs text-slate-500">
        <LogoMark size={16} />
        <span>
          Secured by{" "}
          <a href="/database" target="_blank" rel="noopener" className="font-medium text-slate-700 underline">
            Pressguard
          </a>
        </span>
      </footer>
    </div>
  );
}

export default function FormEmbedLayout() {
  return (
    <FormEmbedFrame>
      <Outlet />
    </FormEmbedFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <FormEmbedFrame>
      <ErrorScreen error={error} />
    </FormEmbedFrame>
  );
}
