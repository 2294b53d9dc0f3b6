import {
  API_KEY_LIFETIMES_DAYS,
  API_KEY_SCOPES,
  type ApiKeyCreated,
  ApiKeyCreation,
  type ApiKeyList,
  type ApiKeyScope,
  type ApiKeySummary,
} from "@pressguard/domain";
import { useCallback, useEffect, useState } from "react";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { errorMessageOf, FormError } from "./form-fields.tsx";

const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: "read: public data only",
  watchlists: "watchlists: your watchlists and their exposures",
  vendor: "vendor: your organisation's programs and reports",
  researcher: "researcher: your reports and profile",
};

const dateOf = (iso: string) => new Date(iso).toUTCString();

/** The secret of a key just made: shown this once, with a copy button. */
function NewKeySecret({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(created.key);
    setCopied(true);
  }
  return (
    <div role="status" className="space-y-2 rounded-md border border-lime-200 bg-lime-50 px-3 py-3 text-sm">
      <p className="text-lime-900">Your new key “{created.name}”. Copy it now: it will not be shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="new-api-key" className="break-all rounded bg-white px-2 py-1 font-mono">
          {created.key}
        </code>
        <button type="button" className="btn-secondary" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/**
 * Named API keys for scripts and scanners (decision 028): made with a name, scopes the user's roles
 * allow and a lifetime; the secret is shown once; the list shows their use and expiry; revoked here.
 */
export function ApiKeys() {
  const { api, user } = useAuth();
  const roles = user()?.roles ?? [];
  // The scopes the server would grant: `read`, `watchlists`, and the user's own roles.
  const scopes = API_KEY_SCOPES.filter(
    (scope) => scope === "read" || scope === "watchlists" || roles.includes(scope),
  );
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api
      .request<ApiKeyList>("/api-keys")
      .then((answer) => setKeys(answer.data))
      .catch((caught: unknown) => setError(errorMessageOf(caught)));
  }, [api]);
  useEffect(load, [load]);

  const form = useSchemaForm({
    schema: ApiKeyCreation,
    fields: ["name", "scopes", "expires_in_days"],
    initialValues: { name: "", scopes: ["read"] as string[], expires_in_days: "90" },
    idPrefix: "api-key",
    idOf: (field) => (field === "scopes" ? "api-key-scope-read" : `api-key-${field}`),
    toInput: (values) => ({ ...values, expires_in_days: Number(values.expires_in_days) }),
    async onSubmit(body) {
      setCreated(await api.request<ApiKeyCreated>("/api-keys", { method: "POST", body }));
      form.setValues({ name: "", scopes: ["read"], expires_in_days: "90" });
      load();
    },
  });
  const { errors, busy, inputProps, values } = form;

  function toggleScope(scope: string, checked: boolean) {
    form.set(
      "scopes",
      checked ? [...values.scopes, scope] : values.scopes.filter((entry) => entry !== scope),
    );
  }

  async function revoke(key: ApiKeySummary) {
    setError(null);
    try {
      await api.request(`/tokens/${key.id}`, { method: "DELETE" });
      load();
    } catch (caught) {
      setError(errorMessageOf(caught));
    }
  }

  return (
    <section aria-labelledby="api-keys-heading" className="space-y-3">
      <h2 id="api-keys-heading" className="text-lg font-semibold text-slate-900">
        API keys
      </h2>
      <p className="text-sm text-slate-600">
        For scripts and scanners: send a key as <code className="font-mono">Authorization: Bearer pgk_…</code>
        . A key can do only what its scopes allow, never manage this account.
      </p>
      {created && <NewKeySecret created={created} onDone={() => setCreated(null)} />}
      <form method="post" onSubmit={form.handleSubmit} noValidate className="space-y-3">
        <FormField label="Name" htmlFor="api-key-name" errors={errors.name}>
          <input {...inputProps("name")} maxLength={100} autoComplete="off" />
        </FormField>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Scopes</legend>
          <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
            {scopes.map((scope) => (
              <label
                key={scope}
                htmlFor={`api-key-scope-${scope}`}
                className="flex items-center gap-2 text-sm"
              >
                <input
                  id={`api-key-scope-${scope}`}
                  type="checkbox"
                  className="h-4 w-4 rounded border-slate-300"
                  checked={values.scopes.includes(scope)}
                  onChange={(event) => toggleScope(scope, event.target.checked)}
                />
                {SCOPE_LABELS[scope]}
              </label>
            ))}
          </div>
          {errors.scopes && <p className="mt-1 text-sm text-red-700">{errors.scopes.join(" ")}</p>}
        </fieldset>
        <FormField label="Expires after" htmlFor="api-key-expires_in_days" errors={errors.expires_in_days}>
          <select {...inputProps("expires_in_days")}>
            {API_KEY_LIFETIMES_DAYS.map((days) => (
              <option key={days} value={String(days)}>
                {days} days
              </option>
            ))}
          </select>
        </FormField>
        <FormAlert messages={errors[FORM_ERROR_KEY]} />
        <button type="submit" className="btn-primary" disabled={busy}>
          Create key
        </button>
      </form>
      <FormError message={error} />
      {keys === null ? (
        <p className="text-sm text-slate-600">Loading…</p>
      ) : keys.length === 0 ? (
        <p className="text-sm text-slate-600">No API keys.</p>
      ) : (
        <ul
          aria-label="API keys"
          className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white"
        >
          {keys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
              <span>
                <span className="font-medium text-slate-900">{key.name}</span>{" "}
                <span className="text-slate-600">({key.scopes.join(", ")})</span>
                <span className="block text-slate-500">
                  created {dateOf(key.created_at)} · last used{" "}
                  <span data-testid="api-key-last-used">
                    {key.last_used_at ? dateOf(key.last_used_at) : "never"}
                  </span>{" "}
                  · expires {dateOf(key.expires_at)}
                </span>
              </span>
              <button type="button" className="btn-secondary" onClick={() => void revoke(key)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
