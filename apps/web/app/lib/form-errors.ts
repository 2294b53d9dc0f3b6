import type { z } from "zod";
import { isApiError } from "./api/api-error.ts";
import { DEFAULT_ERROR_MESSAGE, messageOf } from "./errors.ts";

/** Messages per form field; `_form` holds the ones that belong to no field. */
export type FieldErrorMap = Record<string, string[]>;

export const FORM_ERROR_KEY = "_form";

/** The form's field of a field of the request (its path, dotted as the API's 422 names it). */
export type FieldOf = (requestField: string) => string;

/**
 * Validates form values in the browser with the same schema the API declares (STYLE.md: one zod
 * schema, three uses), giving the specification's exact messages (§5) per field, first issue first.
 * A message goes by the first part of its path, or to the field `fieldOf` names for its whole path.
 */
export function validateForm<S extends z.ZodType>(
  schema: S,
  values: unknown,
  fieldOf?: FieldOf,
): { success: true; data: z.output<S> } | { success: false; errors: FieldErrorMap } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, errors: issuesToFieldErrors(parsed.error.issues, fieldOf) };
}

function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[], fieldOf?: FieldOf): FieldErrorMap {
  const errors: FieldErrorMap = {};
  for (const issue of issues) {
    const field =
      issue.path.length === 0
        ? FORM_ERROR_KEY
        : fieldOf
          ? fieldOf(issue.path.map(String).join("."))
          : String(issue.path[0]);
    const list = errors[field] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    errors[field] = list;
  }
  return errors;
}

/**
 * A failed save: a 422 gives the API's `errors` per field (fields the form does not show go to
 * `_form`, prefixed with their name); any other failure is one form-level message. `fieldOf` names
 * the form's field for a field of the request, when they differ (`entries.2.slug` → a product row).
 */
export function apiErrorToFieldErrors(
  error: unknown,
  knownFields: readonly string[],
  fieldOf: FieldOf = (requestField) => requestField,
): FieldErrorMap {
  if (isApiError(error) && error.errors) {
    const result: FieldErrorMap = {};
    for (const [field, messages] of Object.entries(error.errors)) {
      const formField = fieldOf(field);
      if (knownFields.includes(formField)) result[formField] = [...(result[formField] ?? []), ...messages];
      else {
        const formLevel = messages.map((message) => `${field}: ${message}`);
        result[FORM_ERROR_KEY] = [...(result[FORM_ERROR_KEY] ?? []), ...formLevel];
      }
    }
    return result;
  }
  const message = messageOf(error) || DEFAULT_ERROR_MESSAGE;
  return { [FORM_ERROR_KEY]: [message] };
}

/** A failed save of a form of one field: every message shows at that field, the 422's own first. */
export function apiErrorAtField(error: unknown, field: string, fieldOf?: FieldOf): FieldErrorMap {
  const errors = apiErrorToFieldErrors(error, [field], fieldOf);
  return { [field]: [...(errors[field] ?? []), ...(errors[FORM_ERROR_KEY] ?? [])] };
}
