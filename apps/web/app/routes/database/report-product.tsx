import {
  KIND_LABELS,
  PLATFORM_LABELS,
  productNameFromSlug,
  requireProductPath,
} from "../../lib/database-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/report-product";

export function loader({ params }: Route.LoaderArgs) {
  const { platform, kind } = requireProductPath(params);
  return {
    label: `${PLATFORM_LABELS[platform]} ${KIND_LABELS[kind]}`,
    productName: productNameFromSlug(params.slug),
  };
}

export const meta = pageMeta(
  ({ params }) => `Report a vulnerability in ${productNameFromSlug(params.slug ?? "")}`,
);

export default function ReportProductPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageHeader
      eyebrow={loaderData.label}
      title={`Report a vulnerability in ${loaderData.productName}`}
      lead="Describe the vulnerability, the affected versions and how to reproduce it. The report reaches the vendor privately, and you are credited when it is published."
    />
  );
}
