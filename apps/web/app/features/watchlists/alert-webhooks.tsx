import {
  FORWARD_FORMATS,
  type ForwardTarget,
  type ForwardTargetWithSecret,
  MAX_WATCHLIST_WEBHOOKS,
  WatchlistWebhookInput,
} from "@pressguard/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DeliveryLog } from "../../components/webhooks/delivery-log.tsx";
import { SecretNotice } from "../../components/webhooks/secret-notice.tsx";
import { SignatureHelp } from "../../components/webhooks/signature-help.tsx";
import { WebhookFields } from "../../components/webhooks/webhook-fields.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, LoadError } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { watchlistWebhooksApi, webhookDeliveriesQuery, webhooksKey, webhooksQuery } from "./webhooks-api.ts";

const formatLabel = (format: string) =>
  FORWARD_FORMATS.find((entry) => entry.value === format)?.label ?? format;

/**
 * A watchlist's alert webhooks (issue 20): its alerts, at once whatever the e-mail's mode, to a
 * receiver of the owner's (signed JSON) or a Slack or Discord incoming webhook.
 */
export function AlertWebhooks({ watchlistId }: { watchlistId: string }) {
  const client = useApiClient();
  const webhooks = useQuery(webhooksQuery(client, watchlistId));
  const [secret, setSecret] = useState<ForwardTargetWithSecret | null>(null);
  if (webhooks.isError) return <LoadError message="Error fetching the alert webhooks" />;
  const list = webhooks.data?.data;

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600">
        Each new alert goes at once to every webhook here, whatever the e-mail setting above: to your own
        receiver as signed JSON, or to a Slack or Discord channel through its incoming webhook URL.
      </p>
      {secret && (
        <SecretNotice url={secret.target.url ?? ""} secret={secret.secret} onDone={() => setSecret(null)} />
      )}
      {!list ? (
        <p className="text-sm text-slate-600">Loading…</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600">No webhook yet.</p>
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-md border border-slate-200"
          aria-label="Alert webhooks"
        >
          {list.map((webhook) => (
            <WebhookItem key={webhook.id} watchlistId={watchlistId} webhook={webhook} />
          ))}
        </ul>
      )}
      {list && list.length < MAX_WATCHLIST_WEBHOOKS && (
        <AddWebhookForm watchlistId={watchlistId} onCreated={setSecret} />
      )}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-800">How to check the signature</summary>
        <div className="mt-3">
          <SignatureHelp />
        </div>
      </details>
    </div>
  );
}

function AddWebhookForm({
  watchlistId,
  onCreated,
}: {
  watchlistId: string;
  onCreated: (created: ForwardTargetWithSecret) => void;
}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: WatchlistWebhookInput,
    fields: ["url", "format"],
    initialValues: { url: "", format: "slack" },
    idPrefix: "watch-webhook",
    async onSubmit(data) {
      const created = await watchlistWebhooksApi.add(client, watchlistId, data);
      form.setValues((current) => ({ ...current, url: "" }));
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: webhooksKey(watchlistId) });
    },
  });
  const { errors, busy, inputProps } = form;
  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-4"
      aria-label="Add an alert webhook"
    >
      <WebhookFields
        url={inputProps("url")}
        format={inputProps("format")}
        errors={errors}
        hint="https:// to a public address, such as a Slack or Discord incoming webhook."
        placeholder="https://hooks.slack.com/services/…"
      />
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Adding…" : "Add webhook"}
      </button>
    </form>
  );
}

const DONE = {
  enable: "Alerts go to this webhook again.",
  disable: "Alerts to this webhook are paused.",
  test: "Test alert sent. Its delivery shows in the log.",
  delete: "The webhook was deleted.",
} as const;

function WebhookItem({ watchlistId, webhook }: { watchlistId: string; webhook: ForwardTarget }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const act = useMutation({
    mutationFn: (action: keyof typeof DONE) =>
      action === "delete"
        ? watchlistWebhooksApi.remove(client, watchlistId, webhook.id)
        : watchlistWebhooksApi.action(client, watchlistId, webhook.id, action),
    onSuccess: async (_result, action) => {
      toast.success(DONE[action]);
      if (action === "test") setShowLog(true);
      await queryClient.invalidateQueries({ queryKey: webhooksKey(watchlistId) });
    },
    onError: (error) => {
      toast.error(messageOf(error));
    },
  });
  const active = webhook.status === "active";
  return (
    <li className="space-y-3 px-4 py-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{webhook.url}</p>
          <p className="mt-1 text-xs text-slate-600">
            {formatLabel(webhook.format)} · {active ? "Active" : "Paused"}
            {webhook.disabled_reason && ` · ${webhook.disabled_reason}`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {active && (
            <button
              type="button"
              className="btn-secondary px-3 py-1 text-sm"
              disabled={act.isPending}
              onClick={() => act.mutate("test")}
            >
              Send test alert
            </button>
          )}
          <button
            type="button"
            className="btn-secondary px-3 py-1 text-sm"
            disabled={act.isPending}
            onClick={() => act.mutate(active ? "disable" : "enable")}
          >
            {active ? "Pause" : "Resume"}
          </button>
          <button
            type="button"
            className="btn-secondary px-3 py-1 text-sm"
            aria-expanded={showLog}
            onClick={() => setShowLog(!showLog)}
          >
            {showLog ? "Hide deliveries" : "Deliveries"}
          </button>
          <button
            type="button"
            className="btn-secondary px-3 py-1 text-sm text-red-800"
            disabled={act.isPending}
            aria-label={`Delete the webhook ${webhook.url}`}
            onClick={() => {
              if (window.confirm("Delete this webhook? It receives no more alerts.")) act.mutate("delete");
            }}
          >
            Delete
          </button>
        </div>
      </div>
      {showLog && (
        <DeliveryLog query={(page) => webhookDeliveriesQuery(client, watchlistId, webhook.id, page)} />
      )}
    </li>
  );
}
