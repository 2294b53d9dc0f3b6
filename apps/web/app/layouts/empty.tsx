import { Outlet } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/empty";

/** `empty`: no chrome at all (magic-link sign-in, e-mail previews). */
export default function EmptyLayout() {
  return (
    <MainContent className="mx-auto w-full max-w-3xl px-4 py-10">
      <Outlet />
    </MainContent>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <MainContent className="mx-auto w-full max-w-3xl px-4 py-10">
      <ErrorScreen error={error} />
    </MainContent>
  );
}
