import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { VendorFrame } from "../features/auth/area-frames.tsx";
import { getOptionalUser } from "../lib/session.server.ts";
import { programsPathFor } from "../lib/session-user.ts";
import { ErrorScreen } from "../ui/error-screen.tsx";
import type { Route } from "./+types/vendor";

/** `vendor`: the vendor area with the vendor top menu (spec §2 Menus). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  return { programsPath: programsPathFor(user?.vendor?.active_count), signedIn: user !== null };
}

function VendorLayoutFrame({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("layouts/vendor");
  return (
    <VendorFrame programsPath={data?.programsPath ?? programsPathFor(0)} signedIn={data?.signedIn ?? false}>
      {children}
    </VendorFrame>
  );
}

export default function VendorLayout() {
  return (
    <VendorLayoutFrame>
      <Outlet />
    </VendorLayoutFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <VendorLayoutFrame>
      <ErrorScreen error={error} />
    </VendorLayoutFrame>
  );
}
