import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { VendorHeader } from "../components/app-header.tsx";
import { MainContent } from "../components/main-content.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { EmailVerificationNotice } from "../features/auth/email-verification-notice.tsx";
import { SignOutButton } from "../features/auth/sign-out-button.tsx";
import { getOptionalUser } from "../lib/session.server.ts";
import { programsPathFor } from "../lib/session-user.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/vendor";

/** `vendor`: the vendor area with the vendor top menu (spec §2 Menus). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  return { programsPath: programsPathFor(user?.vendor?.active_count), signedIn: user !== null };
}

function VendorFrame({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("layouts/vendor");
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      {data?.signedIn ? (
        <VendorHeader
          programsPath={data.programsPath}
          actions={
            <SignOutButton className="rounded-md px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white" />
          }
        />
      ) : (
        // Only an error page (a 404 before the guards) reaches an anonymous visitor here: the public
        // header, with Login, rather than a vendor menu that leads nowhere.
        <SiteHeader />
      )}
      <EmailVerificationNotice />
      <MainContent>{children}</MainContent>
      <footer className="border-t border-slate-200 bg-white">
        <p className="page-container py-4 text-xs text-slate-500">
          Pressguard — vulnerability disclosure for vendors
        </p>
      </footer>
    </div>
  );
}

export default function VendorLayout() {
  return (
    <VendorFrame>
      <Outlet />
    </VendorFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <VendorFrame>
      <ErrorScreen error={error} />
    </VendorFrame>
  );
}
