import { ProductContactChange, type ReportDetail } from "@pressguard/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { formatDateTime } from "../../lib/dates.ts";
import { FormField, LoadError } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { productContactQuery, staffApi, staffKeys } from "./api.ts";

/**
 * Who "Notify the vendor" reaches (issue 19). A product with an active program: its vendor, in
 * Pressguard. Otherwise the contact e-mail staff set here, found through the routes the data knows;
 * without one the report waits, and the button says why.
 */
export function VendorContact({ report }: { report: ReportDetail }) {
  const client = useApiClient();
  const productId = report.product.id;
  const contact = useQuery({
    ...productContactQuery(client, productId),
    enabled: !report.product.has_active_program,
  });

  if (report.product.has_active_program)
    return <p className="text-sm text-slate-700">The vendor runs a program: notified here and by e-mail.</p>;
  if (contact.isError) return <LoadError message="The vendor contact could not be loaded." />;
  if (!contact.data) return <p className="text-sm text-slate-600">Loading the vendor contact…</p>;
  const { email, routes, history } = contact.data;
  return (
    <div className="space-y-4 text-sm">
      {email ? (
        <p className="text-slate-700">
          The PIN preview goes to <strong className="break-all">{email}</strong>.
        </p>
      ) : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
          <strong>No vendor contact.</strong> This product runs no program and has no contact e-mail: nobody
          can be notified, and the fix deadline does not start. Find an address through the routes below and
          set it.
        </p>
      )}
      {routes.length > 0 && (
        <div>
          <h3 className="mb-1 font-semibold text-slate-900">Routes to the vendor</h3>
          <ul className="space-y-1">
            {routes.map((route) => (
              <li key={`${route.kind}-${route.text}`}>
                <span className="text-slate-600">{route.label}: </span>
                {route.url ? (
                  <a
                    href={route.url}
                    rel="nofollow noopener noreferrer"
                    target="_blank"
                    className="link break-all"
                  >
                    {route.text}
                  </a>
                ) : (
                  <span className="break-all">{route.text}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ContactForm productId={productId} email={email} />
      {history.length > 0 && (
        <details>
          <summary className="cursor-pointer text-slate-700">Changes ({history.length})</summary>
          <ul className="mt-2 space-y-1 text-slate-600">
            {history.map((change) => (
              <li key={change.changed_at + (change.email ?? "")}>
                {formatDateTime(change.changed_at)}: {change.changed_by} set{" "}
                {change.email ? <span className="break-all">{change.email}</span> : "no address"}
                {change.previous_email && <> (was {change.previous_email})</>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function ContactForm({ productId, email }: { productId: number; email: string | null }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (address: string) => staffApi.setProductContact(client, productId, address),
    onSuccess: (answer) => {
      queryClient.setQueryData(staffKeys.productContact(productId), answer);
      toast.success(answer.email ? "The vendor contact is saved." : "The vendor contact is removed.");
    },
  });
  const form = useSchemaForm({
    schema: ProductContactChange,
    fields: ["email"],
    initialValues: { email: email ?? "" },
    idPrefix: "vendor-contact",
    onSubmit: (_data, values) => save.mutateAsync(values.email.trim()),
  });
  return (
    <form
      method="post"
      aria-label="Vendor contact"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-2"
    >
      <FormField
        label="Contact e-mail"
        htmlFor="vendor-contact-email"
        errors={form.errors.email}
        hint="Where the report's private link and PIN go. Leave blank to remove it."
      >
        <input type="email" autoComplete="off" {...form.inputProps("email")} />
      </FormField>
      <button type="submit" className="btn-secondary" disabled={save.isPending}>
        Save contact
      </button>
    </form>
  );
}
