import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { requireNumericId } from "../../lib/route-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/program";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  // Spec §2: a non-numeric id is "Page not found" for everyone, before any guard.
  const id = requireNumericId(params.id);
  await enforceGuards(handle.guards ?? [], { request, context });
  return { id };
}

export const meta = pageMeta(({ params }) => `Program #${params.id}`);

export default function ProgramPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageHeader
      eyebrow="Program"
      title={`Program #${loaderData.id}`}
      lead="The product and its versions, the counts of open, pending and fixed reports, and the security policy researchers see."
    />
  );
}
