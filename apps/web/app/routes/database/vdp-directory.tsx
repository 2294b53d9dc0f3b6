import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "Active VDP directory",
  "WordPress plugin and theme vendors that run an active vulnerability disclosure program.",
);

export default function VdpDirectoryPage() {
  return (
    <PageHeader
      eyebrow="Public database"
      title="Active VDP directory"
      lead="Plugin and theme vendors that run an active vulnerability disclosure program: a report to one of them reaches their security team directly, and findings earn double points."
    />
  );
}
