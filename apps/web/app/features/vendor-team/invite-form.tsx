import { SeatInvitationInput, SeatRoleLabels } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { INVITABLE_ROLES, teamApi, teamKey } from "./api.ts";

const FIELDS = ["email", "role"] as const;
type FieldName = (typeof FIELDS)[number];
const EMPTY: Record<FieldName, string> = { email: "", role: "member" };

/** Invites a colleague by e-mail to a seat, as an admin or a member. */
export function InviteForm({ full }: { full: boolean }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: SeatInvitationInput,
    fields: FIELDS,
    initialValues: EMPTY,
    idPrefix: "invite",
    async onSubmit(data) {
      const invitation = await teamApi.invite(client, data);
      toast.success(`Invitation sent to ${invitation.email}.`);
      form.setValues(EMPTY);
      await queryClient.invalidateQueries({ queryKey: teamKey });
    },
  });
  const { errors, busy, inputProps } = form;

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start"
    >
      <FormField label="E-mail address" htmlFor="invite-email" errors={errors.email}>
        <input type="email" autoComplete="off" {...inputProps("email")} />
      </FormField>
      <FormField label="Role" htmlFor="invite-role" errors={errors.role}>
        <select {...inputProps("role")}>
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
