import { type ProductClaim, RejectClaimBody } from "@pressguard/domain";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FactList } from "../../components/report-parts.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { DEFAULT_ERROR_MESSAGE, messageOf } from "../../lib/errors.ts";
import { formatDay } from "../../lib/reports.ts";
import { FormField, LoadError } from "../../ui/form-field.tsx";
import { LoadMoreButton } from "../../ui/load-more-table.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { claimListQuery } from "./api.ts";
import { useDecideClaim } from "./use-staff-mutations.ts";

/**
 * `/staff/claims`: lobby claims whose domain did not match the vendor's (decision 006), oldest
 * first; staff approve one (the product becomes the vendor's active program) or reject it with a
 * reason the vendor reads.
 */
export function ProductClaims() {
  const client = useApiClient();
  const list = useInfiniteQuery(claimListQuery(client, "pending"));
  const claims = list.data?.pages.flatMap((page) => page.data) ?? [];

  if (list.isError) return <LoadError message="Error fetching product claims" />;
  if (!list.data)
    return (
      <p className="text-slate-600" aria-busy="true">
        Loading claims…
      </p>
    );
  return (
    <>
      {claims.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">
          No claim is waiting for a decision.
        </p>
      ) : (
        <ul aria-label="Pending claims" className="space-y-4">
          {claims.map((claim) => (
            <ClaimCard key={claim.id} claim={claim} />
          ))}
        </ul>
      )}
      <LoadMoreButton list={list} />
    </>
  );
}

function ExternalLink({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <a href={href} className="link break-all" rel="noopener noreferrer nofollow" target="_blank">
      {href}
    </a>
  );
}

function ClaimCard({ claim }: { claim: ProductClaim }) {
  const decide = useDecideClaim();
  const [rejecting, setRejecting] = useState(false);
  /** A failed approval (the reject form shows its own failures under its field). */
  const [error, setError] = useState<string | null>(null);
  const reasonId = `claim-${claim.id}-reason`;
  const rejection = useSchemaForm({
    schema: RejectClaimBody,
    fields: ["reason"],
    initialValues: { reason: "" },
    idPrefix: `claim-${claim.id}`,
    onSubmit: ({ reason }) => decide.mutateAsync({ id: claim.id, reason }),
    errorsOf: (caught) => ({ reason: [messageOf(caught) || DEFAULT_ERROR_MESSAGE] }),
  });

  return (
    <li
      aria-label={`Claim of ${claim.product.name}`}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-slate-900">{claim.product.name}</h2>
          <p className="font-mono text-xs break-all text-slate-500">
            {claim.product.kind}/{claim.product.slug}
          </p>
        </div>
        <p className="text-sm text-slate-600">Claimed {formatDay(claim.created_at)}</p>
      </div>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Product</h3>
          <FactList
            facts={[
              ["Software URL", <ExternalLink key="p" href={claim.product.product_url} />],
              ["Website", <ExternalLink key="w" href={claim.product.vendor_website_url} />],
            ]}
          />
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Claimed by</h3>
          <FactList
            facts={[
              ["Vendor", claim.vendor.vendor_name],
              ["Vendor website", <ExternalLink key="v" href={claim.vendor.url} />],
              ["Contact e-mail", claim.vendor.contact_email],
              [
                "Requested by",
                claim.requested_by && `${claim.requested_by.name} <${claim.requested_by.email}>`,
              ],
            ]}
          />
        </div>
      </div>
      {rejecting ? (
        <form
          method="post"
          aria-label="Reject the claim"
          onSubmit={rejection.handleSubmit}
          noValidate
          className="mt-4 max-w-xl space-y-3"
        >
          <FormField label="Reason shown to the vendor" htmlFor={reasonId} errors={rejection.errors.reason}>
            <textarea rows={2} maxLength={1000} {...rejection.inputProps("reason")} />
          </FormField>
          <div className="flex gap-2">
            <button
              type="submit"
              className="inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800"
              disabled={decide.isPending}
            >
              Reject the claim
            </button>
            <button type="button" className="btn-secondary" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="mt-4 flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-primary"
            disabled={decide.isPending}
            onClick={() =>
              decide.mutate(
                { id: claim.id },
                { onError: (caught) => setError(messageOf(caught) || DEFAULT_ERROR_MESSAGE) },
              )
            }
          >
            Approve
          </button>
          <button type="button" className="btn-secondary" onClick={() => setRejecting(true)}>
            Reject…
          </button>
          {error && (
            <p role="alert" className="w-full text-sm text-red-700">
              {error}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
