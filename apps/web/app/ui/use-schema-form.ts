import { type ChangeEvent, type FormEvent, useState } from "react";
import type { z } from "zod";
import { apiErrorToFieldErrors, type FieldErrorMap, validateForm } from "../lib/form-errors.ts";
import { errorIdFor, INPUT_CLASS } from "./form-field.tsx";

type Values<Field extends string> = Record<Field, string>;

interface SchemaFormOptions<Field extends string, S extends z.ZodType> {
  /** The schema the API declares for the same body (STYLE.md: one zod schema, three uses). */
  schema: S;
  /** The fields in the order of the form: the first invalid one gets the focus. */
  fields: readonly Field[];
  initialValues: Values<Field> | (() => Values<Field>);
  /** Each input's id is `${idPrefix}-${field}`. */
  idPrefix: string;
  /**
   * Saves the checked values. What it throws is shown on the fields (a 422's messages per field,
   * anything else for the whole form).
   */
  onSubmit: (data: z.output<S>) => unknown;
  /** Values that follow another's change (say, a slug suggested from a name). */
  derive?: (next: Values<Field>, changed: Field) => Values<Field>;
}

/**
 * The state of a form of text fields validated by a shared schema: values, the messages per field
 * (cleared as a field changes), the busy flag of a save, and the props that tie each input to its
 * label and messages (`FormField`). Inputs take `inputProps(field)`; the form takes `handleSubmit`.
 */
export function useSchemaForm<Field extends string, S extends z.ZodType>(
  options: SchemaFormOptions<Field, S>,
) {
  const { schema, fields, idPrefix, onSubmit, derive } = options;
  const [values, setValues] = useState<Values<Field>>(options.initialValues);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);

  const idOf = (field: Field) => `${idPrefix}-${field}`;
  const focusFirst = (found: FieldErrorMap) => {
    const first = fields.find((field) => found[field]);
    if (first) document.getElementById(idOf(first))?.focus();
  };

  function set(field: Field, value: string) {
    setValues((current) => {
      const next = { ...current, [field]: value };
      return derive ? derive(next, field) : next;
    });
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateForm(schema, values);
    if (!checked.success) {
      setErrors(checked.errors);
      focusFirst(checked.errors);
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await onSubmit(checked.data);
    } catch (error) {
      const mapped = apiErrorToFieldErrors(error, fields);
      setErrors(mapped);
      focusFirst(mapped);
    } finally {
      setBusy(false);
    }
  }

  const inputProps = (field: Field) => ({
    id: idOf(field),
    name: field,
    value: values[field],
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? errorIdFor(idOf(field)) : undefined,
    className: INPUT_CLASS,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      set(field, event.target.value),
  });

  return { values, setValues, errors, busy, set, idOf, inputProps, handleSubmit };
}
