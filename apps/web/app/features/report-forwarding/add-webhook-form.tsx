import {
  FORWARD_FORMATS,
  ForwardWebhookTargetInput,
  type ForwardTargetWithSecret as TargetWithSecret,
} from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { useApiClient } from "../../lib/api/client.ts";
import {
  apiErrorToFieldErrors,
  type FieldErrorMap,
  FORM_ERROR_KEY,
  validateForm,
} from "../../lib/form-errors.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { forwardingApi, targetsKey } from "./api.ts";
import { EventPicker } from "./event-picker.tsx";

const FIELDS = ["url", "format", "events"] as const;

/** On the free plan: what webhooks are and where to upgrade. */
export function WebhookUpsell() {
  return (
    <div className="rounded-md border border-lime-200 bg-lime-50 px-4 py-3 text-sm text-slate-800">
      <p className="font-medium">Webhooks are part of the premium plan.</p>
      <p className="mt-1">
        Send each report event, signed, to your issue tracker, Slack or Discord.{" "}
        <Link to="/vdp/account/subscription" className="font-medium text-lime-900 underline">
          Upgrade your subscription
        </Link>{" "}
        to add one.
      </p>
    </div>
  );
}

/** Adds a webhook; the answer carries its signing secret, shown once by the caller. */
export function AddWebhookForm({ onCreated }: { onCreated: (created: TargetWithSecret) => void }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState("json");
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateForm(ForwardWebhookTargetInput, { url, format, events });
    if (!checked.success) {
      setErrors(checked.errors);
      document.getElementById("forward-url")?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const created = await forwardingApi.addWebhook(client, checked.data);
      setUrl("");
      setEvents([]);
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: targetsKey });
    } catch (error) {
      setErrors(apiErrorToFieldErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add a webhook">
      <div className="grid gap-4 sm:grid-cols-[1fr_19rem]">
        <FormField
          label="Webhook URL"
          htmlFor="forward-url"
          errors={errors.url}
          hint="https:// to a public address. Redirects are not followed."
        >
          <input
            id="forward-url"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/hooks/pressguard"
            className={INPUT_CLASS}
            value={url}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? errorIdFor("forward-url") : undefined}
            onChange={(event) => {
              setUrl(event.target.value);
              if (errors.url) setErrors(({ url: _removed, ...rest }) => rest);
            }}
          />
        </FormField>
        <FormField label="Format" htmlFor="forward-format" errors={errors.format}>
          <select
            id="forward-format"
            name="format"
            className={INPUT_CLASS}
            value={format}
            onChange={(event) => setFormat(event.target.value)}
          >
            {FORWARD_FORMATS.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <EventPicker idPrefix="forward-webhook-event" value={events} onChange={setEvents} />
      <FormAlert messages={errors[FORM_ERROR_KEY] ?? errors.events} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Adding…" : "Add webhook"}
      </button>
    </form>
  );
}
