import { useState } from "react";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { forwardingApi } from "./api.ts";

type State =
  | { kind: "ready" }
  | { kind: "confirmed"; email: string; vendorName: string }
  | { kind: "closed"; title: string; message: string };

/** Why a link does not confirm, by the API's status: 404 unknown, 409 used, 410 expired. */
function closedOf(error: unknown): State {
  const message = messageOf(error);
  if (isApiError(error) && error.status === 409)
    return { kind: "closed", title: "Already confirmed", message };
  if (isApiError(error) && error.status === 410) return { kind: "closed", title: "Link expired", message };
  if (isApiError(error) && error.status === 404) return { kind: "closed", title: "Link not valid", message };
  return { kind: "closed", title: "Not confirmed", message };
}

/**
 * The mailed confirmation link's page. Opening it confirms nothing (mail scanners open links):
 * the address is confirmed by the button, which POSTs the token.
 */
export function ConfirmForwarding({ token }: { token: string }) {
  const client = useApiClient();
  const [state, setState] = useState<State>({ kind: "ready" });
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      const answer = await forwardingApi.confirm(client, token);
      setState({ kind: "confirmed", email: answer.email, vendorName: answer.vendor_name });
    } catch (error) {
      setState(closedOf(error));
    } finally {
      setBusy(false);
    }
  }

  if (state.kind === "confirmed")
    return (
      <div role="status" className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Forwarding confirmed</h1>
        <p className="text-slate-700">
          {state.email} now receives the report events {state.vendorName} chose to forward.
        </p>
      </div>
    );
  if (state.kind === "closed")
    return (
      <div role="alert" className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">{state.title}</h1>
        <p className="text-slate-700">{state.message}</p>
      </div>
    );
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Confirm report forwarding</h1>
      <p className="text-slate-700">
        A vendor on Pressguard asked to forward its vulnerability report events to your address. Confirm to
        start receiving them; if you do not expect this, close this page and nothing will be sent.
      </p>
      <button type="button" className="btn-primary" disabled={busy} onClick={confirm}>
        {busy ? "Confirming…" : "Confirm forwarding"}
      </button>
    </div>
  );
}
