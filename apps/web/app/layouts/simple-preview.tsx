import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { ResearcherFrame, VendorFrame } from "../features/auth/area-frames.tsx";
import { getOptionalUser } from "../lib/session.server.ts";
import { isResearcher, isVendor, programsPathFor } from "../lib/session-user.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import { Logo } from "../ui/logo.tsx";
import type { Route } from "./+types/simple-preview";

/**
 * Which frame a preview gets (issue 19): a signed-in vendor opening `/vdp/…` (from their report list)
 * and a signed-in researcher opening `/researchers/…` are in their own area, with its menu and Sign
 * out; the holder of an e-mailed link who is not signed in gets the bare preview.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  const { pathname } = new URL(request.url);
  if (user && isVendor(user) && pathname.startsWith("/vdp/")) {
    return { frame: "vendor" as const, programsPath: programsPathFor(user.vendor?.active_count) };
  }
  if (user && isResearcher(user) && pathname.startsWith("/researchers/")) {
    return { frame: "researcher" as const, researcherUuid: user.researcher?.uuid ?? null };
  }
  return { frame: "bare" as const };
}

/** `simple-preview`: a read-only preview opened from a link with a token; a slim bar, no menus. */
function BarePreviewFrame({ children }: { children: ReactNode }) {
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

function SimplePreviewFrame({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("layouts/simple-preview");
  if (data?.frame === "vendor") {
    return (
      <VendorFrame programsPath={data.programsPath} signedIn>
        {children}
      </VendorFrame>
    );
  }
  if (data?.frame === "researcher") {
    return (
      <ResearcherFrame researcherUuid={data.researcherUuid} signedIn>
        {children}
      </ResearcherFrame>
    );
  }
  return <BarePreviewFrame>{children}</BarePreviewFrame>;
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
