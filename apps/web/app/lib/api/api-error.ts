/**
 * The one error type of the request wrapper (spec §8): any non-2xx answer, a 2xx answer whose body
 * says `status: "error"`, a timeout or an unreachable server.
 */

/** Lines of a flattened `errors` object are joined by this marker (spec §8). */
const ERROR_LINE_SEPARATOR = "_::_";

/** The message of a request aborted by its timeout (spec §7, §8). */
export const REQUEST_ABORTED_MESSAGE = "This request has been automatically aborted.";

/** `{ field: [messages] }` as the API sends it; a bare string per field is accepted too. */
export type FieldErrors = Record<string, readonly string[] | string>;

export interface ApiErrorOptions {
  errors?: Record<string, string[]> | undefined;
  data?: unknown;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** HTTP status; 408 for a timeout, 0 when no answer arrived at all. */
  readonly status: number;
  /** Field errors of a validation answer, normalised to arrays. */
  readonly errors: Record<string, string[]> | undefined;
  /** The parsed body of the answer, when there was one. */
  readonly data: unknown;

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.errors = options.errors;
    this.data = options.data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Normalises an `errors` object to `{ field: string[] }`, dropping anything that is not text. */
export function normaliseFieldErrors(errors: unknown): Record<string, string[]> | undefined {
  if (!errors || typeof errors !== "object" || Array.isArray(errors)) return undefined;
  const result: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(errors)) {
    const messages = (Array.isArray(value) ? value : [value]).filter(
      (message): message is string => typeof message === "string" && message.length > 0,
    );
    if (messages.length > 0) result[field] = messages;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * `{ name: ["is required"], slug: ["is invalid"] }` → `"name is required_::_slug is invalid"`:
 * one line "field message" per message, in the order the API sent them (spec §8).
 */
export function flattenFieldErrors(errors: FieldErrors): string {
  const lines: string[] = [];
  for (const [field, value] of Object.entries(errors)) {
    for (const message of typeof value === "string" ? [value] : value) {
      lines.push(`${field} ${message}`);
    }
  }
  return lines.join(ERROR_LINE_SEPARATOR);
}
