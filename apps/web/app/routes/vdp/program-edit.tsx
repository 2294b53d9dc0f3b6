import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { requireNumericId } from "../../lib/route-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/program-edit";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  // Spec §2: a non-numeric id is "Page not found" for everyone, before any guard.
  const id = requireNumericId(params.id);
  await enforceGuards(handle.guards ?? [], { request, context });
  return { id };
}

export const meta = pageMeta(({ params }) => `Edit program #${params.id}`);

export default function ProgramEditPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageHeader
      eyebrow="Program"
      title={`Edit program #${loaderData.id}`}
      lead="Change the software name, its URL, the website URL, the slug, the description and the vendor contact e-mail."
    />
  );
}
