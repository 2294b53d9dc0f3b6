import { COUNTRIES, VendorAccount, type VendorAccountAnswer } from "@pressguard/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { LoadThenEdit } from "../../ui/load-then-edit.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import {
  canEditAccount,
  VENDOR_ACCOUNT_FAILURE,
  vendorAccountApi,
  vendorAccountKey,
  vendorAccountQuery,
} from "./api.ts";
import {
  browserTimeZone,
  buildTimeZoneOptions,
  fallbackTimeZoneOptions,
  type TimeZoneOption,
} from "./time-zones.ts";

const FIELDS = ["vendor_name", "url", "contact_email", "contact_person", "timezone", "country"] as const;
type FieldName = (typeof FIELDS)[number];
type Values = Record<FieldName, string>;

function valuesOf(account: VendorAccountAnswer): Values {
  return {
    vendor_name: account.vendor_name ?? "",
    url: account.url ?? "",
    contact_email: account.contact_email ?? "",
    contact_person: account.contact_person ?? "",
    timezone: account.timezone ?? "",
    country: account.country ?? "",
  };
}

interface VendorAccountFormProps {
  submitLabel: string;
  /** After a successful save, with the saved account. */
  onSaved: (account: VendorAccountAnswer) => void | Promise<void>;
  /** A new account starts in the browser's own time zone. */
  defaultToBrowserTimeZone?: boolean;
}

/** The vendor account form (spec §3, §5): loads, validates with `VendorAccount`, saves. */
export function VendorAccountForm(props: VendorAccountFormProps) {
  const client = useApiClient();
  const account = useQuery(vendorAccountQuery(client));
  return (
    <LoadThenEdit record={account} failure={VENDOR_ACCOUNT_FAILURE}>
      {(loaded) => <AccountFields account={loaded} {...props} />}
    </LoadThenEdit>
  );
}

function AccountFields({
  account,
  submitLabel,
  onSaved,
  defaultToBrowserTimeZone = false,
}: VendorAccountFormProps & { account: VendorAccountAnswer }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const editable = canEditAccount(account.role);
  const form = useSchemaForm({
    schema: VendorAccount,
    fields: FIELDS,
    initialValues: () => valuesOf(account),
    idPrefix: "vendor-account",
    async onSubmit(data) {
      const saved = await vendorAccountApi.update(client, data);
      queryClient.setQueryData(vendorAccountKey, saved);
      await onSaved(saved);
    },
  });
  const { values, setValues, errors, busy, idOf: id } = form;
  const [zones, setZones] = useState<TimeZoneOption[]>(() => fallbackTimeZoneOptions(values.timezone));

  // The full list comes from the browser (spec §3); SSR and the first render show the current value only.
  useEffect(() => {
    setZones(buildTimeZoneOptions());
    if (defaultToBrowserTimeZone && editable) {
      setValues((current) => (current.timezone ? current : { ...current, timezone: browserTimeZone() }));
    }
  }, [defaultToBrowserTimeZone, editable, setValues]);

  const common = (field: FieldName) => ({ ...form.inputProps(field), disabled: !editable });
  const text = (field: FieldName, type: string, autoComplete: string) => (
    <input type={type} autoComplete={autoComplete} {...common(field)} />
  );
  const zoneOptions =
    values.timezone && !zones.some((zone) => zone.value === values.timezone)
      ? [...fallbackTimeZoneOptions(values.timezone), ...zones]
      : zones;

  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="space-y-5">
      {!editable && (
        <p
          role="note"
          className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
        >
          Only the owner or an admin of your vendor organisation can change these settings.
        </p>
      )}
      <FormField label="Vendor name" htmlFor={id("vendor_name")} errors={errors.vendor_name}>
        {text("vendor_name", "text", "organization")}
      </FormField>
      <FormField label="Website" htmlFor={id("url")} errors={errors.url} optional>
        {text("url", "url", "url")}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          label="Vendor e-mail"
          htmlFor={id("contact_email")}
          errors={errors.contact_email}
          hint="Where new reports are announced."
        >
          {text("contact_email", "email", "email")}
        </FormField>
        <FormField label="Person of contact" htmlFor={id("contact_person")} errors={errors.contact_person}>
          {text("contact_person", "text", "name")}
        </FormField>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Time zone" htmlFor={id("timezone")} errors={errors.timezone}>
          <select {...common("timezone")}>
            <option value="">Choose a time zone</option>
            {zoneOptions.map((zone) => (
              <option key={zone.value} value={zone.value}>
                {zone.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Country" htmlFor={id("country")} errors={errors.country} optional>
          <select {...common("country")}>
            <option value="">Not given</option>
            {COUNTRIES.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      {editable && (
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
      )}
    </form>
  );
}
