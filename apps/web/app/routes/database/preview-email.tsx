import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta("E-mail preview");

export default function PreviewEmailPage() {
  return (
    <PageHeader
      title="E-mail preview"
      lead="Shows a notification e-mail of the vulnerability database exactly as it will be sent."
    />
  );
}
