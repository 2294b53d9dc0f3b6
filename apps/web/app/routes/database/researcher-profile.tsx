import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("Researcher profile");

export default function ResearcherProfilePage() {
  return (
    <PageHeader
      eyebrow="Security researcher"
      title="Researcher profile"
      lead="The researcher's published vulnerabilities, points and leaderboard rank, with their country and links."
    />
  );
}
