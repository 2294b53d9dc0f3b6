import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { MainContent } from "./components/main-content.tsx";
import { loadFooterMetrics } from "./lib/api/footer-metrics.server.ts";
import { installPageDataToken } from "./lib/api/page-data-token.ts";
import { configureErrorReporting } from "./lib/error-reporting.ts";
import { replayFieldsChangedBeforeHydration } from "./lib/fields-changed-before-hydration.ts";
import { isResolvingIdentity, useSettleIdentity } from "./lib/identity.ts";
import type { RootLoaderData } from "./lib/public-config.ts";
import { getRequestContext } from "./lib/request-context.server.ts";
import { isStaticPage } from "./lib/route-handle.ts";
import { pageMeta } from "./lib/seo.ts";
import { getOptionalUser, isIdentityUnknown } from "./lib/session.server.ts";
import { useAppVersionWatch } from "./lib/use-app-version.ts";
import { ErrorScreen } from "./ui/error-screen.tsx";
import { StaticPageContext } from "./ui/link.tsx";
import { LoadingBar } from "./ui/loading-bar.tsx";
import { Logo } from "./ui/logo.tsx";
import { useToastsWanted } from "./ui/toast.ts";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "stylesheet", href: stylesheet },
];

/** The public config (from the server's load context) and the footer metrics, for every page. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<RootLoaderData> {
  const { publicConfig } = getRequestContext(context, request);
  const [footer, user] = await Promise.all([
    loadFooterMetrics(request, context),
    getOptionalUser(request, context),
  ]);
  return {
    publicConfig,
    footerMetrics: footer.metrics,
    footerMetricsFetchedAt: footer.fetchedAt,
    user,
    identityPending: !user && isIdentityUnknown(request, context),
  };
}

/**
 * Configuration does not change during a visit, and the footer metrics keep for a day in the
 * browser; the root runs again only to settle an identity the server could not see (decision 021).
 */
export function shouldRevalidate() {
  return isResolvingIdentity();
}

/** Pages without a title of their own: the last path segment; error pages: status and message. */
export const meta = pageMeta();

export function Layout({ children }: { children: ReactNode }) {
  // Reading pages of the public database ship no JavaScript (decision 007): no scripts, no preloads.
  const hydrate = !isStaticPage(useMatches().map((match) => match.handle));
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#020617" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <a href="#main-content" className="skip-link">
          Skip to content
        </a>
        <StaticPageContext.Provider value={!hydrate}>
          <QueryClientProvider client={queryClient}>
            <LoadingBar />
            {children}
            <LazyToasts />
          </QueryClientProvider>
        </StaticPageContext.Provider>
        {hydrate && <ScrollRestoration />}
        {/* Before the module scripts: zod without `new Function`, which the CSP forbids (decision 020). */}
        {hydrate && <script src="/zod-jitless.js" />}
        {hydrate && <Scripts />}
      </body>
    </html>
  );
}

/** The toasts' container, fetched with react-toastify at the first toast of the page view (ui/toast.ts). */
const ToastContainer = lazy(() => import("./ui/toast-container.tsx"));

function LazyToasts() {
  const wanted = useToastsWanted();
  return wanted ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { buildId, sentryDsn, auth } = loaderData.publicConfig;
  const tokenInLocalStorage = auth.mode === "token" && auth.tokenStorage === "localStorage";
  // Before any navigation: page-data requests carry the stored token (decision 021).
  useState(() => tokenInLocalStorage && installPageDataToken());
  useSettleIdentity(loaderData.identityPending);
  useAppVersionWatch(buildId);
  useEffect(() => {
    configureErrorReporting({ dsn: sentryDsn, release: buildId });
  }, [sentryDsn, buildId]);
  useEffect(() => {
    // What the visitor typed while the scripts loaded goes into the fields' state before they render again.
    replayFieldsChangedBeforeHydration();
    // Marks the end of hydration: end-to-end tests wait for it before client-side navigation.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

/** Reached only when no layout caught the error (a crash of the root itself). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <div className="flex min-h-screen flex-col">
      <header data-theme="dark" className="bg-slate-950">
        <div className="page-container flex h-16 items-center">
          <Logo />
        </div>
      </header>
      <MainContent>
        <ErrorScreen error={error} />
      </MainContent>
    </div>
  );
}
