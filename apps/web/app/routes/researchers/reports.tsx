import { useLocation } from "react-router";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { Panel } from "../../ui/page-header.tsx";

// No meta of its own: the title falls back to the tab segment ("In Review", "Rejected", …).
export const handle: RouteHandle = { guards: ["auth-researcher"], menu: "researcher" };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);

const DESCRIPTIONS: Record<string, string> = {
  "in-review": "Reports you submitted that our triage team or the vendor is still reviewing.",
  rejected: "Reports that were not accepted, each with the reason given.",
  published: "Your findings that are published in the public database, with the points they earned.",
  validated: "Reports confirmed as valid vulnerabilities, waiting for the vendor's fix and publication.",
};

/** Four routes share this module (in-review, rejected, published, validated). */
export default function ResearcherReportsPage() {
  const tab = useLocation().pathname.split("/").filter(Boolean).pop() ?? "in-review";
  return <Panel>{DESCRIPTIONS[tab] ?? DESCRIPTIONS["in-review"]}</Panel>;
}
