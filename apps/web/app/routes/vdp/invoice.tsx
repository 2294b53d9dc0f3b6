import { PrintableInvoice } from "../../features/vendor-subscription/invoice-document.tsx";
import { isApiError } from "../../lib/api/api-error.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { throwNotFound } from "../../lib/errors.ts";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/invoice";

/** Owners and admins, like the subscription page the invoice is listed on. */
export const handle: RouteHandle = {
  guards: ["auth-vendor", "user-role", "capability"],
  userRoles: ["owner", "admin"],
  capability: "manage-vendor",
};

/**
 * The guards, then the invoice (`GET /api/vendor/invoices/{number}`). The API answers only the
 * vendor's own invoices: another vendor's number, or one that is no invoice number, is "Page not found".
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await enforceGuards(handle, { request, context });
  try {
    const invoice = await readForPage(
      { request, context },
      "/vendor/invoices/:number",
      { number: params.number },
      undefined,
      { as: "visitor" },
    );
    return { invoice };
  } catch (error) {
    if (isApiError(error) && [403, 404, 422].includes(error.status)) throwNotFound();
    throw error;
  }
}

export const meta = pageMeta(
  ({ params }) => `Invoice ${params.number ?? ""}`.trim(),
  "Print or save an invoice of your Pressguard subscription.",
);

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  return <PrintableInvoice invoice={loaderData.invoice} />;
}
