import { InvitationAccountInput, type InvitationPreview, SeatRoleLabels } from "@pressguard/domain";
import { type ReactNode, useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { apiErrorToFieldErrors, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { invitationAccountPath, teamApi } from "./api.ts";
import { formatDay } from "./dates.ts";

/** Where a new seat lands: the reports its organisation handles. */
const JOINED_PATH = "/vdp/reports/awaiting_fix";

export interface InvitationViewer {
  email: string;
  /** Signs out, to open the link again with the invited address (composed by the route). */
  signOut: ReactNode;
}

/**
 * The invitation link's page: "Join <vendor> as <role>", then one of three ways in — accept as
 * the signed-in user, sign in first (an account exists), or create the account here.
 */
export function InvitationAccept({
  token,
  invitation,
  viewer,
}: {
  token: string;
  invitation: InvitationPreview;
  viewer: InvitationViewer | null;
}) {
  return (
    <div className="space-y-5">
      <header>
        <h1 className="text-2xl font-semibold text-slate-900">
          Join {invitation.vendor_name} as {invitation.role === "admin" ? "an admin" : "a member"}
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          {SeatRoleLabels[invitation.role]}s{" "}
          {invitation.role === "admin"
            ? "read and handle reports and manage seats, the subscription and report forwarding."
            : "read and handle the vulnerability reports of the organisation's products."}{" "}
          Sent to {invitation.email}; the link works once, until {formatDay(invitation.expires_at)}.
        </p>
      </header>
      {viewer ? (
        <AcceptAsViewer token={token} viewer={viewer} />
      ) : invitation.has_account ? (
        <SignInFirst token={token} email={invitation.email} />
      ) : (
        <CreateAccount token={token} />
      )}
    </div>
  );
}

function AcceptAsViewer({ token, viewer }: { token: string; viewer: InvitationViewer }) {
  const client = useApiClient();
  const [error, setError] = useState<string[] | undefined>();
  const [busy, setBusy] = useState(false);

  async function accept() {
    setBusy(true);
    setError(undefined);
    try {
      await teamApi.accept(client, token);
      window.location.assign(JOINED_PATH);
    } catch (caught) {
      setError(apiErrorToFieldErrors(caught, [])[FORM_ERROR_KEY]);
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        You are signed in as <span className="font-medium text-slate-900">{viewer.email}</span>.
      </p>
      <FormAlert messages={error} />
      <button type="button" className="btn-primary w-full" disabled={busy} onClick={() => void accept()}>
        {busy ? "Joining…" : "Accept invitation"}
      </button>
      <p className="text-sm text-slate-600">
        Not the invited address? {viewer.signOut} and open the link again.
      </p>
    </div>
  );
}

function SignInFirst({ token, email }: { token: string; email: string }) {
  const back = `/vdp/invitations/${token}`;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        An account exists for {email}. Sign in with it, and you come back here to accept.
      </p>
      <Link to={`/vdp/login?${new URLSearchParams({ redirect: back })}`} className="btn-primary w-full">
        Sign in to accept
      </Link>
    </div>
  );
}

function CreateAccount({ token }: { token: string }) {
  const auth = useAuth();
  const form = useSchemaForm({
    schema: InvitationAccountInput,
    fields: ["name", "password"],
    initialValues: { name: "", password: "" },
    idPrefix: "invitation",
    async onSubmit(data) {
      // Signs in the way the auth mode does: the session cookie, or a token kept by the client.
      await auth.client.signInWith(invitationAccountPath(token), data);
      window.location.assign(JOINED_PATH);
    },
  });
  const { errors, busy, inputProps } = form;

  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">
        Create your account: it signs in with the invited address, which this link confirms.
      </p>
      <FormField label="Your name" htmlFor="invitation-name" errors={errors.name}>
        <input type="text" autoComplete="name" {...inputProps("name")} />
      </FormField>
      <FormField
        label="Password"
        htmlFor="invitation-password"
        errors={errors.password}
        hint="At least 8 characters."
      >
        <input type="password" autoComplete="new-password" {...inputProps("password")} />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Creating your account…" : "Create account and join"}
      </button>
    </form>
  );
}

/** A used, expired, revoked or unknown link. */
export function ClosedInvitation({ message }: { message: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">This invitation cannot be used</h1>
      <p
        role="alert"
        className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        {message}
      </p>
      <p className="text-sm text-slate-600">
        Already joined?{" "}
        <Link to="/vdp/login" className="link">
          Sign in
        </Link>
        .
      </p>
    </div>
  );
}
