import type { z } from "zod";
import { isApiError } from "./api/api-error.ts";
import { DEFAULT_ERROR_MESSAGE, messageOf } from "./errors.ts";

/** Messages per form field; `_form` holds the ones that belong to no field. */
export type FieldErrorMap = Record<string, string[]>;

export const FORM_ERROR_KEY = "_form";

/**
 * Validates form values in the browser with the same schema the API declares (STYLE.md: one zod
 * schema, three uses), giving the specification's exact messages (§5) per field, first issue first.
 */
export function validateForm<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { success: true; data: z.output<S> } | { success: false; errors: FieldErrorMap } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, errors: issuesToFieldErrors(parsed.error.issues) };
}

function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrorMap {
  const errors: FieldErrorMap = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : FORM_ERROR_KEY;
    const list = errors[field] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    errors[field] = list;
  }
  return errors;
}

/**
 * A failed save: a 422 gives the API's `errors` per field (fields the form does not show go to
 * `_form`, prefixed with their name); any other failure is one form-level message.
 */
export function apiErrorToFieldErrors(error: unknown, knownFields: readonly string[]): FieldErrorMap {
  if (isApiError(error) && error.errors) {
    const result: FieldErrorMap = {};
    for (const [field, messages] of Object.entries(error.errors)) {
      if (knownFields.includes(field)) result[field] = [...messages];
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
