import { type ChangeEvent, type FormEvent, useRef, useState } from "react";
import type { z } from "zod";
import { apiErrorToFieldErrors, type FieldErrorMap, type FieldOf, validateForm } from "../lib/form-errors.ts";
import { errorIdFor, INPUT_CLASS } from "./form-field.tsx";

type FormValues = Record<string, unknown>;

/** What `inputProps` gives the element of a text field, for a part that lays out fields of its form. */
export interface FieldInputProps {
  id: string;
  name: string;
  value: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  className: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;
}

/** The fields whose value is text: the ones `inputProps` ties to an input, a select or a textarea. */
type TextField<V extends FormValues> = {
  [K in keyof V & string]: V[K] extends string ? K : never;
}[keyof V & string];

/**
 * A request's schema, or a function that loads it (a dynamic import of the feature's `schemas.ts`):
 * then the schema, and zod with it, is fetched when the form is first changed and awaited when it is
 * sent, instead of with the page (issue 35).
 */
type SchemaSource<S extends z.ZodType> = S | (() => Promise<S>);

const schemaOf = <S extends z.ZodType>(source: SchemaSource<S>): S | Promise<S> =>
  typeof source === "function" ? source() : source;

/** One request a form sends: its body's schema, the values as it reads them, and the save. */
interface FormAction<V extends FormValues, S extends z.ZodType> {
  /** The domain schema the API declares for the same body (STYLE.md: one zod schema, three uses). */
  schema: SchemaSource<S>;
  /**
   * The values as the schema reads them (say, a select's text as the number of a code); may be a
   * promise, for a reading done by code fetched when the form is sent (a site's plugin list).
   */
  toInput?: (values: V) => unknown;
  /** Rules that are not the request's (say, a solved captcha), checked with the schema; may be a promise. */
  check?: (values: V) => FieldErrorMap | Promise<FieldErrorMap>;
  /**
   * Saves the checked values (the schema's output, and the values as typed). What it throws is shown
   * on the fields: by `errorsOf` when given, else a 422's messages per field and anything else for
   * the whole form.
   */
  onSubmit: (data: z.output<S>, values: V) => unknown;
}

interface SchemaFormOptions<V extends FormValues, S extends z.ZodType> extends FormAction<V, S> {
  /**
   * The fields in the order of the form: the first invalid one gets the focus, and a 422's messages
   * for these go by them (others go to the whole form). May name fields the values do not hold,
   * say `captcha`, that the API answers about.
   */
  fields: readonly string[];
  initialValues: V | (() => V);
  /** Each field's element id is `${idPrefix}-${field}`, unless `idOf` says otherwise. */
  idPrefix: string;
  idOf?: (field: string) => string;
  /**
   * The form's field of a field of the request, where they differ (say, `entries.2.version` → the
   * list the entries were read from): for the schema's messages and a 422's alike.
   */
  fieldOf?: (requestField: string, values: V) => string;
  /** The messages of a failed save, read from what it threw (and the values it sent). */
  errorsOf?: (error: unknown, values: V) => FieldErrorMap;
  /** After a failed save, once its messages are shown (say, ask for a new captcha). */
  onFailed?: (error: unknown) => void;
  /** Values that follow another's change (say, a slug suggested from a name). */
  derive?: (next: V, changed: keyof V) => V;
  /** Where the focus goes for an invalid field with no element of its own id (say, a search box). */
  focusTarget?: (field: string) => HTMLElement | null;
  /**
   * The messages a route action answered, for a form that posts to one (and so works without
   * JavaScript: the PIN page). Shown from the first render on; a new answer (a new object) replaces
   * the messages, which then go as their fields change, like the form's own.
   */
  serverErrors?: FieldErrorMap | undefined;
}

/**
 * The one form layer of the web app (decision 023): the values of a form checked by the domain
 * schema of its request, the messages per field (cleared as a field changes, set by a failed check
 * or by the API's 422), the busy flag of a save, and the props that tie each text input to its
 * label and messages (`FormField`). Inputs take `inputProps(field)`; parts that are not inputs
 * (a product picker, a list of events) read `values` and call `set`; the form takes `handleSubmit`,
 * a button that sends another request from the same values `submitWith`.
 */
export function useSchemaForm<V extends FormValues, S extends z.ZodType>(options: SchemaFormOptions<V, S>) {
  const { fields, idPrefix, derive } = options;
  const [values, setValues] = useState<V>(options.initialValues);
  const [errors, setErrors] = useState<FieldErrorMap>(options.serverErrors ?? {});
  const [busy, setBusy] = useState(false);
  // A new answer of the route action: its messages replace the shown ones (set during render, so the
  // server-rendered page and the first paint carry them).
  const [serverErrors, setServerErrors] = useState(options.serverErrors);
  if (options.serverErrors !== serverErrors) {
    setServerErrors(options.serverErrors);
    setErrors(options.serverErrors ?? {});
  }

  // A submission is under way (from its first check on): another press is ignored until it ends.
  const submitting = useRef(false);
  // A schema given as a loader is fetched at the first change of the form.
  const schemaRequested = useRef(false);

  const idOf = options.idOf ?? ((field: string) => `${idPrefix}-${field}`);
  const focusFirst = (found: FieldErrorMap) => {
    const first = fields.find((field) => found[field]);
    if (first) (document.getElementById(idOf(first)) ?? options.focusTarget?.(first))?.focus();
  };

  /** Takes away the messages of these fields (say, once a part that is not an input changes). */
  function clearErrors(...names: string[]) {
    if (!names.some((name) => errors[name])) return;
    setErrors((current) => {
      const next = { ...current };
      for (const name of names) delete next[name];
      return next;
    });
  }

  function set<K extends keyof V & string>(field: K, value: V[K]) {
    if (!schemaRequested.current && typeof options.schema === "function") {
      schemaRequested.current = true;
      // Fetched ahead of the submission; a failure shows then, when it is awaited again.
      Promise.resolve(schemaOf(options.schema)).catch(() => undefined);
    }
    setValues((current) => {
      const next = { ...current, [field]: value };
      return derive ? derive(next, field) : next;
    });
    clearErrors(field);
  }

  /** Checks the values with an action's schema, then saves them; shows what fails on the fields. */
  async function submit<T extends z.ZodType>(action: FormAction<V, T>) {
    if (submitting.current) return;
    submitting.current = true;
    try {
      await checkAndSave(action);
    } finally {
      submitting.current = false;
    }
  }

  async function checkAndSave<T extends z.ZodType>(action: FormAction<V, T>) {
    const { fieldOf } = options;
    const formFieldOf: FieldOf | undefined = fieldOf && ((requestField) => fieldOf(requestField, values));
    let schema: T;
    let input: unknown;
    let checkedElse: FieldErrorMap | undefined;
    try {
      [schema, input, checkedElse] = await Promise.all([
        schemaOf(action.schema),
        action.toInput ? action.toInput(values) : values,
        action.check?.(values),
      ]);
    } catch (error) {
      // The code of the check could not be fetched (offline, or a newer build took its place).
      setErrors(apiErrorToFieldErrors(error, fields, formFieldOf));
      return;
    }
    const checked = validateForm(schema, input, formFieldOf);
    const found: FieldErrorMap = { ...(checked.success ? {} : checked.errors), ...checkedElse };
    if (!checked.success || Object.keys(found).length > 0) {
      setErrors(found);
      focusFirst(found);
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await action.onSubmit(checked.data, values);
    } catch (error) {
      const mapped = options.errorsOf
        ? options.errorsOf(error, values)
        : apiErrorToFieldErrors(error, fields, formFieldOf);
      setErrors(mapped);
      focusFirst(mapped);
      options.onFailed?.(error);
    } finally {
      setBusy(false);
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await submit(options);
  }

  /**
   * Runs another request of the same form from a button that is not its submit button (the sign-in
   * form's "Email me a sign-in link"): its own schema and save, the form's values, messages and busy flag.
   */
  function submitWith<T extends z.ZodType>(action: FormAction<V, T>) {
    return () => void submit(action);
  }

  /** The props of the element that holds a text field, tied to its label and messages. */
  const inputProps = (field: TextField<V>): FieldInputProps => ({
    id: idOf(field),
    name: field,
    value: values[field] as string,
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? errorIdFor(idOf(field)) : undefined,
    className: INPUT_CLASS,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      set(field, event.target.value as V[typeof field]),
  });

  return {
    values,
    setValues,
    errors,
    busy,
    set,
    clearErrors,
    idOf,
    inputProps,
    handleSubmit,
    submitWith,
  };
}
