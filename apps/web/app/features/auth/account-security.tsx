import { type SignedInPlace, type SignedInPlaces, TwoFactorCode } from "@pressguard/domain";
import { useCallback, useEffect, useState } from "react";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { AddRole } from "./add-role.tsx";
import { ApiKeys } from "./api-keys.tsx";
import { authErrorsOf } from "./auth-errors.ts";
import { ChangePasswordForm } from "./change-password-form.tsx";
import { errorMessageOf, FormError, FormNotice } from "./form-fields.tsx";

/**
 * The signed-in user's sessions and login tokens (a client signed in in token mode), each revocable
 * but the current one (PRODUCT.md §7, decision 028).
 */
function SessionList() {
  const { api } = useAuth();
  const [sessions, setSessions] = useState<SignedInPlace[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api
      .request<SignedInPlaces>("/sessions")
      .then((answer) => setSessions(answer.data))
      .catch((caught: unknown) => setError(errorMessageOf(caught)));
  }, [api]);
  useEffect(load, [load]);

  async function revoke(session: SignedInPlace) {
    setError(null);
    try {
      await api.request(`/${session.kind === "token" ? "tokens" : "sessions"}/${session.id}`, {
        method: "DELETE",
      });
      load();
    } catch (caught) {
      setError(errorMessageOf(caught));
    }
  }

  return (
    <section aria-labelledby="sessions-heading" className="space-y-3">
      <h2 id="sessions-heading" className="text-lg font-semibold text-slate-900">
        Signed-in sessions
      </h2>
      <FormError message={error} />
      {sessions === null ? (
        <p className="text-sm text-slate-600">Loading…</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
          {sessions.map((session) => (
            <li
              key={`${session.kind}-${session.id}`}
              className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm"
            >
              <span>
                <span className="font-medium text-slate-900">{session.user_agent ?? "Unknown browser"}</span>
                <span className="block text-slate-500">
                  {session.kind === "token" ? "API token" : (session.ip ?? "unknown address")} · signed in{" "}
                  {new Date(session.created_at).toUTCString()} · last active{" "}
                  {new Date(session.last_seen_at).toUTCString()} · expires{" "}
                  {new Date(session.expires_at).toUTCString()}
                </span>
              </span>
              {session.current ? (
                <span className="text-slate-500">This browser</span>
              ) : (
                <button type="button" className="btn-secondary" onClick={() => void revoke(session)}>
                  Sign out this session
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The optional TOTP second factor (required for staff): start, scan or type the secret, confirm with
 * a first code; turned off with a current code. Also on its own on the staff set-up page (PRODUCT.md §7).
 */
export function TwoFactorSettings() {
  const { api, user } = useAuth();
  const [enabled, setEnabled] = useState(Boolean(user()?.two_factor_enabled));
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The start of the set-up is a button, not a form: its failure is shown on its own. */
  const [startError, setStartError] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: TwoFactorCode,
    fields: ["code"],
    initialValues: { code: "" },
    idPrefix: "two-factor",
    // The code confirms the enrolment under way, or turns the second factor off.
    async onSubmit(body) {
      const confirming = enrolment !== null;
      setNotice(null);
      await api.request(`/user/two-factor/${confirming ? "confirm" : "disable"}`, { method: "POST", body });
      form.setValues({ code: "" });
      setEnrolment(null);
      setEnabled(confirming);
      setNotice(confirming ? "Two-factor authentication is on." : "Two-factor authentication is off.");
    },
    errorsOf: (error) => authErrorsOf(error, ["code"]),
  });
  const { errors, busy, inputProps } = form;

  async function start() {
    setStartError(null);
    setNotice(null);
    try {
      setEnrolment(await api.request("/user/two-factor", { method: "POST" }));
    } catch (caught) {
      setStartError(errorMessageOf(caught));
    }
  }

  return (
    <section aria-labelledby="two-factor-heading" className="space-y-3">
      <h2 id="two-factor-heading" className="text-lg font-semibold text-slate-900">
        Two-factor authentication
      </h2>
      <p className="text-sm text-slate-600">
        {enabled
          ? "On: signing in asks for a code from your authenticator app."
          : "Off: add a code from an authenticator app to your sign-in."}
      </p>
      {enrolment && (
        <div className="space-y-2 text-sm">
          <p>
            Add this secret to your authenticator app, then enter the code it shows:{" "}
            <code className="font-mono break-all">{enrolment.secret}</code>
          </p>
          <a className="link" href={enrolment.otpauth_url}>
            Open in an authenticator app
          </a>
        </div>
      )}
      {enrolment || enabled ? (
        <form method="post" onSubmit={form.handleSubmit} noValidate className="space-y-3">
          <FormField label="Authentication code" htmlFor="two-factor-code" errors={errors.code}>
            <input
              {...inputProps("code")}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              onChange={(event) => form.set("code", event.target.value.trim())}
            />
          </FormField>
          <FormAlert messages={errors[FORM_ERROR_KEY]} />
          <FormNotice message={notice} />
          <div className="flex gap-3">
            <button type="submit" className={enrolment ? "btn-primary" : "btn-secondary"} disabled={busy}>
              {enrolment ? "Confirm" : "Turn off"}
            </button>
          </div>
        </form>
      ) : (
        <>
          <FormError message={startError} />
          <FormNotice message={notice} />
          <div className="flex gap-3">
            <button type="button" className="btn-primary" onClick={() => void start()}>
              Set up two-factor authentication
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** Account security for the settings pages: sessions, API keys, the password, the second factor, the other role. */
export function AccountSecurity() {
  return (
    <div className="mt-8 space-y-10">
      <SessionList />
      <ApiKeys />
      <ChangePasswordForm />
      <TwoFactorSettings />
      <AddRole />
    </div>
  );
}
