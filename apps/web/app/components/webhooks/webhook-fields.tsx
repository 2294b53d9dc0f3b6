import { FORWARD_FORMATS } from "@pressguard/domain";
import type { ComponentProps } from "react";
import { FormField } from "../../ui/form-field.tsx";

type FieldProps = ComponentProps<"input"> & ComponentProps<"select"> & { id: string };

/**
 * A webhook's URL and body format, as report forwarding's and a watchlist's add forms ask for them;
 * `url` and `format` are the form's `inputProps` of those fields.
 */
export function WebhookFields({
  url,
  format,
  errors,
  hint,
  placeholder,
}: {
  url: FieldProps;
  format: FieldProps;
  errors: { url?: string[] | undefined; format?: string[] | undefined };
  hint: string;
  placeholder: string;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_19rem]">
      <FormField label="Webhook URL" htmlFor={url.id} errors={errors.url} hint={hint}>
        <input type="url" inputMode="url" autoComplete="off" placeholder={placeholder} {...url} />
      </FormField>
      <FormField label="Format" htmlFor={format.id} errors={errors.format}>
        <select {...format}>
          {FORWARD_FORMATS.map((entry) => (
            <option key={entry.value} value={entry.value}>
              {entry.label}
            </option>
          ))}
        </select>
      </FormField>
    </div>
  );
}
