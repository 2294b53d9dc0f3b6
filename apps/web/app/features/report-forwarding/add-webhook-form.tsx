import { type ForwardTargetWithSecret, ForwardWebhookTargetInput } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { WebhookFields } from "../../components/webhooks/webhook-fields.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { forwardingApi, targetsKey } from "./api.ts";
import { EventPicker } from "./event-picker.tsx";

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
export function AddWebhookForm({ onCreated }: { onCreated: (created: ForwardTargetWithSecret) => void }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: ForwardWebhookTargetInput,
    fields: ["url", "format", "events"],
    initialValues: { url: "", format: "json", events: [] as string[] },
    idPrefix: "forward",
    // The events have no box of their own: their message shows above the button.
    focusTarget: () => document.getElementById("forward-url"),
    async onSubmit(data) {
      const created = await forwardingApi.addWebhook(client, data);
      form.setValues((current) => ({ ...current, url: "", events: [] }));
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: targetsKey });
    },
  });
  const { values, errors, busy, inputProps } = form;

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-4"
      aria-label="Add a webhook"
    >
      <WebhookFields
        url={inputProps("url")}
        format={inputProps("format")}
        errors={errors}
        hint="https:// to a public address. Redirects are not followed."
        placeholder="https://example.com/hooks/pressguard"
      />
      <EventPicker
        idPrefix="forward-webhook-event"
        value={values.events}
        onChange={(events) => form.set("events", events)}
      />
      <FormAlert messages={errors[FORM_ERROR_KEY] ?? errors.events} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Adding…" : "Add webhook"}
      </button>
    </form>
  );
}
