import type { RouteHandle } from "../../lib/route-handle.ts";
import { requireNumericId } from "../../lib/route-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/program";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

export function loader({ params }: Route.LoaderArgs) {
  return { id: requireNumericId(params.id) };
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
