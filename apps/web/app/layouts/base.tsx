import type { ReactNode } from "react";
import { Outlet, useMatches, useParams, useRouteLoaderData } from "react-router";
import { MainContent } from "../components/main-content.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
import { ResearcherFrame, WatchlistFrame } from "../features/auth/area-frames.tsx";
import { mergeHandles } from "../lib/route-handle.ts";
import { getOptionalUser } from "../lib/session.server.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/base";

/**
 * `base`: the general page frame. The researcher area shows the researcher menu and the watchlist
 * pages theirs (routes say so with `handle.menu`); every other page, and the 404 page, shows the
 * public header.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  return { researcherUuid: user?.researcher?.uuid ?? null, signedIn: user !== null };
}

function BaseFrame({ children }: { children: ReactNode }) {
  const { menu } = mergeHandles(useMatches().map((match) => match.handle));
  const data = useRouteLoaderData<typeof loader>("layouts/base");
  const { uuid } = useParams();
  if (menu === "watchlists") return <WatchlistFrame>{children}</WatchlistFrame>;
  if (menu === "researcher") {
    return (
      <ResearcherFrame
        researcherUuid={data?.researcherUuid ?? uuid ?? null}
        signedIn={data?.signedIn ?? false}
      >
        {children}
      </ResearcherFrame>
    );
  }
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <MainContent>{children}</MainContent>
      <SiteFooter />
    </div>
  );
}

export default function BaseLayout() {
  return (
    <BaseFrame>
      <Outlet />
    </BaseFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <BaseFrame>
      <ErrorScreen error={error} />
    </BaseFrame>
  );
}
