import type { RouteHandle } from "../../lib/route-handle.ts";
import { requireNumericId } from "../../lib/route-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/program-edit";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

export function loader({ params }: Route.LoaderArgs) {
  return { id: requireNumericId(params.id) };
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
