import { useQuery } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { SUBSCRIPTION_FAILURE, subscriptionQuery } from "./api.ts";
import { InvoiceHistory } from "./invoice-history.tsx";
import { PlanCards } from "./plan-cards.tsx";

/** `/vdp/account/subscription`: the plans, the current one's usage, and the invoices below. */
export function SubscriptionOverview() {
  const client = useApiClient();
  const subscription = useQuery(subscriptionQuery(client));
  if (subscription.isError) return <LoadError message={SUBSCRIPTION_FAILURE} />;
  const data = subscription.data;
  if (!data)
    return (
      <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600" aria-busy="true">
        Loading your subscription…
      </p>
    );
  return (
    <>
      <p className="mb-4 text-slate-700">
        You use <strong className="text-slate-900">{data.seats.used}</strong> of {data.seats.limit} seats (
        {data.seats.members} {data.seats.members === 1 ? "member" : "members"}, {data.seats.invitations} open{" "}
        {data.seats.invitations === 1 ? "invitation" : "invitations"})
        {data.webhooks > 0 && (
          <>
            {" "}
            and {data.webhooks} {data.webhooks === 1 ? "webhook" : "webhooks"}
          </>
        )}
        .{" "}
        <Link to="/vdp/account/seats" className="link">
          Manage seats
        </Link>
      </p>
      <PlanCards subscription={data} />
      <InvoiceHistory invoices={data.invoices} />
    </>
  );
}
