import { ForwardEmailTargetInput } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { forwardingApi, targetsKey } from "./api.ts";
import { EventPicker } from "./event-picker.tsx";

/** Adds an e-mail target; it receives nothing until someone at that address confirms the mailed link. */
export function AddEmailForm() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: ForwardEmailTargetInput,
    fields: ["email", "events"],
    initialValues: { email: "", events: [] as string[] },
    idPrefix: "forward",
    // The events have no box of their own: their message shows above the button.
    focusTarget: () => document.getElementById("forward-email"),
    async onSubmit(data) {
      const target = await forwardingApi.addEmail(client, data);
      toast.success(`We sent a confirmation link to ${target.email}.`);
      form.setValues({ email: "", events: [] });
      await queryClient.invalidateQueries({ queryKey: targetsKey });
    },
  });
  const { values, errors, busy } = form;

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-4"
      aria-label="Add an e-mail address"
    >
      <FormField
        label="E-mail address"
        htmlFor="forward-email"
        errors={errors.email}
        hint="We e-mail a confirmation link first; nothing is forwarded before it is confirmed."
      >
        <input type="email" autoComplete="off" {...form.inputProps("email")} />
      </FormField>
      <EventPicker
        idPrefix="forward-email-event"
        value={values.events}
        onChange={(events) => form.set("events", events)}
      />
      <FormAlert messages={errors[FORM_ERROR_KEY] ?? errors.events} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Adding…" : "Add e-mail address"}
      </button>
    </form>
  );
}
