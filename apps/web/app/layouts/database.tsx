import type { ReactNode } from "react";
import { Outlet, redirect } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { MenuLink } from "../components/menu-link.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { DATABASE_MENU } from "../lib/navigation.ts";
import { getRequestContext } from "../lib/request-context.server.ts";
import { DATABASE_FEED, feedLinkOf, withTrailingSlashRule } from "../lib/seo.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/database";

/** Every page of the database announces its Atom feed of new vulnerabilities (feed autodiscovery). */
export const links: Route.LinksFunction = () => [feedLinkOf(DATABASE_FEED)];

/** The site's trailing-slash rule (spec §3 site config): the other form of a path redirects, permanently. */
export function loader({ request, context }: Route.LoaderArgs) {
  const { publicConfig } = getRequestContext(context, request);
  const url = new URL(request.url);
  const wanted = withTrailingSlashRule(url.pathname, publicConfig.site.trailingSlash);
  if (wanted !== url.pathname) throw redirect(`${wanted}${url.search}`, 301);
  return null;
}

/** `database`: the public vulnerability database, with its own sub-navigation and the data attribution. */
function DatabaseFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <nav aria-label="Database" className="border-b border-slate-200 bg-white">
        <ul className="page-container flex gap-1 overflow-x-auto py-2">
          {DATABASE_MENU.map((item) => (
            <li key={item.to} className="shrink-0">
              <MenuLink
                item={item}
                className="inline-flex rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                currentClassName="bg-slate-100 text-slate-950"
              />
            </li>
          ))}
        </ul>
      </nav>
      <MainContent>{children}</MainContent>
      <SiteFooter attribution />
    </div>
  );
}

export default function DatabaseLayout() {
  return (
    <DatabaseFrame>
      <Outlet />
    </DatabaseFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <DatabaseFrame>
      <ErrorScreen error={error} />
    </DatabaseFrame>
  );
}
