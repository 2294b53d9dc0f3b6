import type { ForwardTargetWithSecret } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { SecretNotice } from "../../components/webhooks/secret-notice.tsx";
import { SignatureHelp } from "../../components/webhooks/signature-help.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Panel } from "../../ui/page-header.tsx";
import { AddEmailForm } from "./add-email-form.tsx";
import { AddWebhookForm, WebhookUpsell } from "./add-webhook-form.tsx";
import { TARGETS_FAILURE, targetsQuery } from "./api.ts";
import { TargetItem } from "./target-item.tsx";

/** The Forward reports tab (issue 8): the targets, the two add forms and the signature help. */
export function ForwardingPanel() {
  const client = useApiClient();
  const targets = useQuery(targetsQuery(client));
  const [secret, setSecret] = useState<ForwardTargetWithSecret | null>(null);
  if (targets.isError) return <LoadError message={TARGETS_FAILURE} />;
  if (!targets.data) return <Panel>Loading…</Panel>;
  const premium = targets.data.plan === "premium";

  return (
    <div className="space-y-6">
      <Panel>
        <h2 className="text-lg font-semibold text-slate-900">Forwarding targets</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Forward report events automatically to another e-mail address or to your own system, such as an
          issue tracker. Only what your team may read on the report's page is sent, with a link to it.
        </p>
        {secret && (
          <div className="mb-4">
            <SecretNotice
              url={secret.target.url ?? ""}
              secret={secret.secret}
              onDone={() => setSecret(null)}
            />
          </div>
        )}
        {targets.data.data.length === 0 ? (
          <p className="text-sm text-slate-600">No targets yet: add an e-mail address or a webhook below.</p>
        ) : (
          <ul
            className="divide-y divide-slate-200 rounded-md border border-slate-200"
            aria-label="Forwarding targets"
          >
            {targets.data.data.map((target) => (
              <TargetItem key={target.id} target={target} premium={premium} onSecret={setSecret} />
            ))}
          </ul>
        )}
      </Panel>
      <Panel>
        <h2 className="mb-4 text-lg font-semibold text-slate-900">Add an e-mail address</h2>
        <AddEmailForm />
      </Panel>
      <Panel>
        <h2 className="mb-4 text-lg font-semibold text-slate-900">Add a webhook</h2>
        {premium ? <AddWebhookForm onCreated={setSecret} /> : <WebhookUpsell />}
      </Panel>
      <Panel>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Verifying signatures</h2>
        <SignatureHelp />
      </Panel>
    </div>
  );
}
