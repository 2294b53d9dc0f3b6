import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { StaffHeader } from "../components/app-header.tsx";
import { MainContent } from "../components/main-content.tsx";
import { SignOutButton } from "../features/auth/sign-out-button.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/staff";

/** `staff`: the platform's triage area (PRODUCT.md §1) with the staff top menu. */
function StaffFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <StaffHeader
        actions={
          <SignOutButton className="rounded-md px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white" />
        }
      />
      <MainContent>{children}</MainContent>
      <footer className="border-t border-slate-200 bg-white">
        <p className="page-container py-4 text-xs text-slate-500">Pressguard — staff triage</p>
      </footer>
    </div>
  );
}

export default function StaffLayout() {
  return (
    <StaffFrame>
      <Outlet />
    </StaffFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <StaffFrame>
      <ErrorScreen error={error} />
    </StaffFrame>
  );
}
