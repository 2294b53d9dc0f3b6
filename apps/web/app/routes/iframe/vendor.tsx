import type { EmbedVendor } from "@pressguard/domain";
import { contentSecurityPolicy, type SubmittedReport } from "@pressguard/domain";
import { useState } from "react";
import { data } from "react-router";
import type { ChosenProduct, ProductChoice } from "../../features/reports/chosen-product.ts";
import { ReportForm } from "../../features/reports/report-form.tsx";
import { useReportSubmission } from "../../features/reports/use-report-submission.ts";
import { isApiError } from "../../lib/api/api-error.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { apiFailureOf } from "../../lib/errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { getOptionalUser } from "../../lib/session.server.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/vendor";

export const meta = pageMeta("Report a vulnerability", "Report a security issue privately to this vendor.");

/** The CSP source list of the vendor's own origins; nobody may frame the page when there is none. */
export function frameAncestorsPolicy(origins: readonly string[]): string {
  return `frame-ancestors ${safeAncestors(origins).join(" ") || "'none'"}`;
}

function safeAncestors(origins: readonly string[]): string[] {
  return origins.filter((origin) => /^https:\/\/[a-z0-9.-]+$/.test(origin));
}

/**
 * The server's whole policy (script nonce included) with the vendor's `frame-ancestors`: this page's
 * header replaces the server's. Without the server's options (development), only the framing rule.
 */
function embedPolicy(context: Route.LoaderArgs["context"], origins: readonly string[]): string {
  const server = context.contentSecurityPolicy;
  if (!server) return frameAncestorsPolicy(origins);
  return contentSecurityPolicy({ ...server, frameAncestors: safeAncestors(origins) });
}

const UNAVAILABLE = { available: false as const };

/**
 * The vendor embed (issue 7): the report form limited to the vendor's active programs, framed only by
 * the vendor's own sites (`Content-Security-Policy: frame-ancestors`, set here for this page; every
 * other page is `frame-ancestors 'none'` from the server). A missing or unknown key is a 404 state.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const key = new URL(request.url).searchParams.get("vendor")?.trim() ?? "";
  const refuse = () =>
    data(UNAVAILABLE, {
      status: 404,
      headers: { "Content-Security-Policy": embedPolicy(context, []), "Cache-Control": "no-store" },
    });
  if (!key) return refuse();
  let vendor: EmbedVendor;
  try {
    vendor = await readForPage({ request, context }, "/v1/embed/vendors/:public_key", { public_key: key });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return refuse();
    throw apiFailureOf(error);
  }
  return data(
    {
      available: true as const,
      vendorKey: key,
      vendorName: vendor.vendor_name,
      programs: vendor.programs,
      signedIn: (await getOptionalUser(request, context)) !== null,
    },
    {
      headers: {
        "Content-Security-Policy": embedPolicy(context, vendor.frame_ancestors),
        "Cache-Control": "no-store",
      },
    },
  );
}

/** The document's headers are the loader's (the framing policy above). */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function VendorEmbedPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.available) return <Unavailable />;
  return <VendorEmbedForm {...loaderData} />;
}

function Unavailable() {
  return (
    <div data-testid="embed-unavailable" className="mx-auto max-w-xl py-8 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">This reporting form is not available</h1>
      <p className="mt-2 text-slate-600">
        The link that opened it does not name a vendor we know. If you found a vulnerability, you can still{" "}
        <a className="link" href="/database/report" target="_blank" rel="noopener">
          report it on Pressguard
        </a>
        .
      </p>
    </div>
  );
}

function VendorEmbedForm({
  vendorKey,
  vendorName,
  programs,
  signedIn,
}: {
  vendorKey: string;
  vendorName: string;
  programs: ProductChoice[];
  signedIn: boolean;
}) {
  const { captchaChallengeUrl, onSubmit } = useReportSubmission();
  const [submitted, setSubmitted] = useState<{ report: SubmittedReport; email: string | null } | null>(null);
  const only = programs.length === 1 ? programs[0] : undefined;
  const initialProduct: ChosenProduct | undefined = only && { ...only };

  if (submitted) return <Confirmation vendorName={vendorName} {...submitted} />;
  return (
    <>
      <PageHeader
        title={`Report a vulnerability to ${vendorName}`}
        lead="Found a security issue in one of this vendor's plugins or themes? Report it here: it reaches their security team privately, and you are credited when it is fixed and published."
      />
      {programs.length === 0 ? (
        <p
          data-testid="embed-no-programs"
          className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700"
        >
          {vendorName} has no active disclosure program yet.{" "}
          <a className="link" href="/database/report" target="_blank" rel="noopener">
            Report on Pressguard instead
          </a>
          .
        </p>
      ) : (
        <ReportForm
          signedIn={signedIn}
          captchaChallengeUrl={captchaChallengeUrl}
          // The server holds the report to this vendor's programs by the key (embed_key).
          onSubmit={(body) => onSubmit({ ...body, embed_key: vendorKey })}
          onSubmitted={(report, email) => setSubmitted({ report, email })}
          initialProduct={initialProduct}
          productChoices={programs}
          idPrefix="embed-report"
        />
      )}
    </>
  );
}

/** Stays in the frame: the reporter is told what happens next without leaving the vendor's site. */
function Confirmation({
  vendorName,
  report,
  email,
}: {
  vendorName: string;
  report: SubmittedReport;
  email: string | null;
}) {
  return (
    <div data-testid="embed-submitted" className="mx-auto max-w-2xl space-y-4" role="status">
      <PageHeader
        title="Report received"
        lead={`Thank you. ${vendorName}'s security team will be told privately.`}
      />
      <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">
        <p>
          Report: <strong className="break-words text-slate-900">{report.title}</strong>
        </p>
        {email ? (
          report.two_factor_required ? (
            <p>
              It was added to the researcher account of{" "}
              <strong className="break-all text-slate-900">{email}</strong>, which uses two-factor
              authentication:{" "}
              <a className="link" href="/researchers/login" target="_blank" rel="noopener">
                sign in to Pressguard with your password and code
              </a>{" "}
              to follow it.
            </p>
          ) : report.magic_link_sent ? (
            <p>
              We sent a sign-in link to <strong className="break-all text-slate-900">{email}</strong>. Open it
              to follow your report and to be credited for it.
            </p>
          ) : (
            <p>
              We could not send a sign-in link right now: sign in to Pressguard later to follow the report.
            </p>
          )
        ) : (
          <p>
            It is in your researcher account:{" "}
            <a
              className="link"
              href={`/database/report-submitted?${new URLSearchParams({ report: report.id })}`}
              target="_blank"
              rel="noopener"
            >
              follow it on Pressguard
            </a>
            .
          </p>
        )}
      </div>
    </div>
  );
}
