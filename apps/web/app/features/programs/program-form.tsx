import {
  PLANS,
  PROGRAM_FIELDS,
  Program,
  type ProgramInput,
  SOFTWARE_TYPES,
  slugify,
} from "@pressguard/domain";
import { type ReactNode, useState } from "react";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";

type FieldName = (typeof PROGRAM_FIELDS)[number];

/** The form's values: every field as text, as the inputs hold them. */
type ProgramFormValues = Record<FieldName, string>;

const EMPTY_PROGRAM: ProgramFormValues = {
  kind: "plugin",
  version: "",
  name: "",
  product_url: "",
  description: "",
  dependencies: "",
  vendor_contact_email: "",
  slug: "",
  vendor_website_url: "",
  plan: "free",
};

/** Stored values (nulls for empty optional fields) → the inputs' text. */
export function programFormValues(values: Partial<Record<FieldName, string | null | undefined>>) {
  const result = { ...EMPTY_PROGRAM };
  for (const field of PROGRAM_FIELDS) {
    const value = values[field];
    if (typeof value === "string") result[field] = value;
  }
  return result;
}

interface ProgramFormProps {
  initialValues?: ProgramFormValues;
  submitLabel: string;
  /** Saves the validated program; a thrown 422 puts the API's messages next to the fields. */
  onSubmit: (program: ProgramInput) => Promise<unknown>;
  /** An active program's kind and slug no longer change (decision 006). */
  lockKindAndSlug?: boolean;
  /** A new program's slug follows its name until the slug is typed by hand. */
  suggestSlug?: boolean;
  idPrefix?: string;
  footer?: ReactNode;
}

/**
 * The one program form (create and edit): validated in the browser with the `Program` schema the
 * API declares, so the messages next to each field are the specification's (§5).
 */
export function ProgramForm({
  initialValues = EMPTY_PROGRAM,
  submitLabel,
  onSubmit,
  lockKindAndSlug = false,
  suggestSlug = false,
  idPrefix = "program",
  footer,
}: ProgramFormProps) {
  const [slugTouched, setSlugTouched] = useState(!suggestSlug || initialValues.slug !== "");
  const {
    errors,
    busy,
    idOf: id,
    inputProps,
    handleSubmit,
  } = useSchemaForm({
    schema: Program,
    fields: PROGRAM_FIELDS,
    initialValues,
    idPrefix,
    onSubmit,
    derive: (next, changed) =>
      changed === "name" && !slugTouched ? { ...next, slug: slugify(next.name) } : next,
  });
  const text = (field: FieldName, type = "text", extra: Record<string, unknown> = {}) => (
    <input type={type} {...inputProps(field)} {...extra} />
  );

  return (
    <form method="post" onSubmit={handleSubmit} noValidate className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Software type" htmlFor={id("kind")} errors={errors.kind}>
          <select {...inputProps("kind")} disabled={lockKindAndSlug}>
            {SOFTWARE_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          label="Plan"
          htmlFor={id("plan")}
          errors={errors.plan}
          hint="Paid: a premium version is sold."
        >
          <select {...inputProps("plan")}>
            {PLANS.map((plan) => (
              <option key={plan.value} value={plan.value}>
                {plan.label}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <FormField label="Software name" htmlFor={id("name")} errors={errors.name}>
        {text("name", "text", { autoComplete: "off" })}
      </FormField>
      <FormField
        label="Slug"
        htmlFor={id("slug")}
        errors={errors.slug}
        hint={
          lockKindAndSlug
            ? "An active program's slug no longer changes."
            : "As on WordPress.org: lowercase letters and digits joined by hyphens."
        }
      >
        <input
          type="text"
          {...inputProps("slug")}
          readOnly={lockKindAndSlug}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setSlugTouched(true);
            inputProps("slug").onChange(event);
          }}
        />
      </FormField>
      <FormField
        label="Software URL"
        htmlFor={id("product_url")}
        errors={errors.product_url}
        hint="Where the software is published, e.g. https://wordpress.org/plugins/my-plugin/"
      >
        {text("product_url", "url", { inputMode: "url", placeholder: "https://" })}
      </FormField>
      <FormField label="Website URL" htmlFor={id("vendor_website_url")} errors={errors.vendor_website_url}>
        {text("vendor_website_url", "url", { inputMode: "url", placeholder: "https://" })}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Version" htmlFor={id("version")} errors={errors.version} optional>
          {text("version")}
        </FormField>
        <FormField
          label="Vendor contact e-mail"
          htmlFor={id("vendor_contact_email")}
          errors={errors.vendor_contact_email}
          optional
        >
          {text("vendor_contact_email", "email", { autoComplete: "email" })}
        </FormField>
      </div>
      <FormField label="Description" htmlFor={id("description")} errors={errors.description} optional>
        <textarea rows={3} {...inputProps("description")} />
      </FormField>
      <FormField
        label="Dependencies"
        htmlFor={id("dependencies")}
        errors={errors.dependencies}
        optional
        hint="Other plugins or libraries it needs, e.g. WooCommerce."
      >
        {text("dependencies")}
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
        {footer}
      </div>
    </form>
  );
}
