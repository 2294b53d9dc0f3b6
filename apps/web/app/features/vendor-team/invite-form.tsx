import { SeatInvitationInput, SeatRoleLabels } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "react-toastify";
import { useApiClient } from "../../lib/api/client.ts";
import {
  apiErrorToFieldErrors,
  type FieldErrorMap,
  FORM_ERROR_KEY,
  validateForm,
} from "../../lib/form-errors.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { INVITABLE_ROLES, teamApi, teamKey } from "./api.ts";

const FIELDS = ["email", "role"] as const;
type FieldName = (typeof FIELDS)[number];
const EMPTY = { email: "", role: "member" };

/** Invites a colleague by e-mail to a seat, as an admin or a member. */
export function InviteForm({ full }: { full: boolean }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<FieldName, string>>(EMPTY);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);

  function set(field: FieldName, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateForm(SeatInvitationInput, values);
    if (!checked.success) {
      setErrors(checked.errors);
      document.getElementById("invite-email")?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const invitation = await teamApi.invite(client, checked.data);
      toast.success(`Invitation sent to ${invitation.email}.`);
      setValues(EMPTY);
      await queryClient.invalidateQueries({ queryKey: teamKey });
    } catch (error) {
      setErrors(apiErrorToFieldErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start">
      <FormField label="E-mail address" htmlFor="invite-email" errors={errors.email}>
        <input
          id="invite-email"
          name="email"
          type="email"
          autoComplete="off"
          className={INPUT_CLASS}
          value={values.email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? errorIdFor("invite-email") : undefined}
          onChange={(event) => set("email", event.target.value)}
        />
      </FormField>
      <FormField label="Role" htmlFor="invite-role" errors={errors.role}>
        <select
          id="invite-role"
          name="role"
          className={INPUT_CLASS}
          value={values.role}
          onChange={(event) => set("role", event.target.value)}
        >
          {INVITABLE_ROLES.map((role) => (
            <option key={role} value={role}>
              {SeatRoleLabels[role]}
            </option>
          ))}
        </select>
      </FormField>
      <button
        type="submit"
        className="btn-primary disabled:cursor-not-allowed disabled:opacity-50 sm:mt-6"
        disabled={busy || full}
      >
        {busy ? "Sending…" : "Send invitation"}
      </button>
      <div className="sm:col-span-3">
        <FormAlert messages={errors[FORM_ERROR_KEY]} />
      </div>
    </form>
  );
}
