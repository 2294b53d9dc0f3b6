import { isApiError } from "../../lib/api/api-error.ts";
import { type FieldErrorMap, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { messageOfLines } from "./form-fields.tsx";

/**
 * A failed auth form's messages (the `errorsOf` of `useSchemaForm`): the API's messages about the
 * fields in `shown` go under them; the rest is one alert in the API's words, without field names
 * (the sign-in's "These credentials do not match our records.", a reset link that has expired).
 */
export function authErrorsOf(error: unknown, shown: readonly string[]): FieldErrorMap {
  const byField: FieldErrorMap = {};
  const rest: string[] = [];
  for (const [field, messages] of Object.entries((isApiError(error) && error.errors) || {})) {
    if (shown.includes(field)) byField[field] = [...messages];
    else rest.push(...messages);
  }
  if (Object.keys(byField).length > 0 && rest.length === 0) return byField;
  return { ...byField, [FORM_ERROR_KEY]: [messageOfLines(error, rest)] };
}
