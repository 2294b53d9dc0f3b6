import { ForwardEmailTargetInput } from "@pressguard/domain";
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
import { forwardingApi, targetsKey } from "./api.ts";
import { EventPicker } from "./event-picker.tsx";

const FIELDS = ["email", "events"] as const;

/** Adds an e-mail target; it receives nothing until someone at that address confirms the mailed link. */
export function AddEmailForm() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateForm(ForwardEmailTargetInput, { email, events });
    if (!checked.success) {
      setErrors(checked.errors);
      document.getElementById("forward-email")?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const target = await forwardingApi.addEmail(client, checked.data);
      toast.success(`We sent a confirmation link to ${target.email}.`);
      setEmail("");
      setEvents([]);
      await queryClient.invalidateQueries({ queryKey: targetsKey });
    } catch (error) {
      setErrors(apiErrorToFieldErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add an e-mail address">
      <FormField
        label="E-mail address"
        htmlFor="forward-email"
        errors={errors.email}
        hint="We e-mail a confirmation link first; nothing is forwarded before it is confirmed."
      >
        <input
          id="forward-email"
          name="email"
          type="email"
          autoComplete="off"
          className={INPUT_CLASS}
          value={email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? errorIdFor("forward-email") : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.email) setErrors(({ email: _removed, ...rest }) => rest);
          }}
        />
      </FormField>
      <EventPicker idPrefix="forward-email-event" value={events} onChange={setEvents} />
      <FormAlert messages={errors[FORM_ERROR_KEY] ?? errors.events} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Adding…" : "Add e-mail address"}
      </button>
    </form>
  );
}
