import { EmailVerificationNotice } from "../../features/auth/email-verification-notice.tsx";
import { FETCH_FAILURES } from "../../features/database/api.server.ts";
import type { ChosenProduct } from "../../features/reports/chosen-product.ts";
import { ReportForm } from "../../features/reports/report-form.tsx";
import { useReportSubmission } from "../../features/reports/use-report-submission.ts";
import { isApiError } from "../../lib/api/api-error.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import {
  KIND_LABELS,
  PLATFORM_LABELS,
  productNameFromSlug,
  requireProductPath,
} from "../../lib/database-params.ts";
import { apiFailureOf } from "../../lib/errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { getOptionalUser } from "../../lib/session.server.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/report-product";

/**
 * The report form with its product filled in from the path (PRODUCT.md §3). A product the database
 * does not know yet is offered typed in, from the slug; the server makes it a lobby product.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { platform, kind } = requireProductPath(params);
  let product: ChosenProduct = { kind, slug: params.slug, name: productNameFromSlug(params.slug) };
  try {
    const found = await readForPage({ request, context }, "/v1/products/:platform/:kind/:slug", {
      platform,
      kind,
      slug: params.slug,
    });
    product = {
      kind: found.kind,
      slug: found.slug,
      name: found.name,
      id: found.id,
      vulnerabilities: found.counters.vulnerabilities,
    };
  } catch (error) {
    // An unknown product is still reported, named from its slug.
    if (!isApiError(error) || error.status !== 404) throw apiFailureOf(error, FETCH_FAILURES.product);
  }
  return {
    label: `${PLATFORM_LABELS[platform]} ${KIND_LABELS[kind]}`,
    product,
    signedIn: (await getOptionalUser(request, context)) !== null,
  };
}

export const meta = pageMeta(
  ({ params }) => `Report a vulnerability in ${productNameFromSlug(params.slug ?? "")}`,
  ({ params }) =>
    `Report a vulnerability in ${productNameFromSlug(params.slug ?? "")} privately to its vendor, and be credited when it is published.`,
);

export default function ReportProductPage({ loaderData }: Route.ComponentProps) {
  const submission = useReportSubmission();
  return (
    <>
      <PageHeader
        eyebrow={loaderData.label}
        title={`Report a vulnerability in ${loaderData.product.name}`}
        lead="Describe the vulnerability, the affected versions and how to reproduce it. The report reaches the vendor privately, and you are credited when it is published."
      />
      {/* A signed-in reporter needs a confirmed address (the API refuses the report otherwise). */}
      <div className="mb-6 overflow-hidden rounded-lg empty:hidden">
        <EmailVerificationNotice />
      </div>
      <ReportForm signedIn={loaderData.signedIn} initialProduct={loaderData.product} {...submission} />
    </>
  );
}
