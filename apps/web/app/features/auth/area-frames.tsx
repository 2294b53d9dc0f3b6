import type { ReactNode } from "react";
import { ResearcherHeader, VendorHeader, WatchlistHeader } from "../../components/app-header.tsx";
import { MainContent } from "../../components/main-content.tsx";
import { SiteFooter } from "../../components/site-footer.tsx";
import { SiteHeader } from "../../components/site-header.tsx";
import { EmailVerificationNotice } from "./email-verification-notice.tsx";
import { SignOutButton } from "./sign-out-button.tsx";

const SIGN_OUT_CLASS =
  "rounded-md px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white";

/**
 * The vendor area's frame (spec §2 Menus): the vendor menu and Sign out for a signed-in vendor. Used
 * by the `vendor` layout and by a report preview a signed-in vendor opens (issue 19).
 */
export function VendorFrame({
  programsPath,
  signedIn,
  children,
}: {
  programsPath: string;
  signedIn: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      {signedIn ? (
        <VendorHeader programsPath={programsPath} actions={<SignOutButton className={SIGN_OUT_CLASS} />} />
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

/**
 * The researcher area's frame: the researcher menu, Sign out when signed in. Used by the `base`
 * layout for the researcher pages and by a report preview a signed-in researcher opens (issue 19).
 */
export function ResearcherFrame({
  researcherUuid,
  signedIn,
  children,
}: {
  researcherUuid: string | null;
  signedIn: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <ResearcherHeader
        researcherUuid={researcherUuid}
        actions={signedIn ? <SignOutButton className={SIGN_OUT_CLASS} /> : null}
      />
      <EmailVerificationNotice />
      <MainContent>{children}</MainContent>
      <SiteFooter />
    </div>
  );
}

/** The watchlist pages' frame (issue 20): their menu, Sign out, the address reminder. */
export function WatchlistFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <WatchlistHeader actions={<SignOutButton className={SIGN_OUT_CLASS} />} />
      <EmailVerificationNotice />
      <MainContent>{children}</MainContent>
      <SiteFooter />
    </div>
  );
}
