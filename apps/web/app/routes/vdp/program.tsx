import { RunningClocks } from "../../features/exploitation/running-clocks.tsx";
import { requireOwnProgram } from "../../features/programs/program.server.ts";
import { ProgramDetailPanel } from "../../features/programs/program-detail.tsx";
import { UserNotices } from "../../features/programs/user-notices.tsx";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { requireNumericId } from "../../lib/route-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/program";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  // Spec §2: a non-numeric id is "Page not found" for everyone, before any guard.
  const id = requireNumericId(params.id);
  await enforceGuards(handle, { request, context });
  await requireOwnProgram({ request, context }, id);
  return { id };
}

export const meta = pageMeta(
  ({ params }) => `Program #${params.id}`,
  "Follow one of your disclosure programs: its report counters, published vulnerabilities and security contributors.",
);

/** The program loads in the browser and stays cached until the product list changes (spec §4). */
export default function ProgramPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <ProgramDetailPanel key={loaderData.id} id={loaderData.id} />
      <RunningClocks productId={Number(loaderData.id)} />
      <UserNotices id={loaderData.id} />
    </>
  );
}
