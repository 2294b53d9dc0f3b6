import { data, isRouteErrorResponse } from "react-router";
import { isApiError } from "./api/api-error.ts";

/** Spec §2, §8: the texts of the error screens; DEFAULT_ERROR_MESSAGE is also every failed call's last resort. */
export const DEFAULT_ERROR_MESSAGE = "An error occurred.";
export const NOT_FOUND_MESSAGE = "Page not found";
const SERVER_ERROR_MESSAGE = "Internal server error";

const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  404: NOT_FOUND_MESSAGE,
  500: SERVER_ERROR_MESSAGE,
};

/** What to show for a failed call: the error's own message, or {@link DEFAULT_ERROR_MESSAGE} for anything not an Error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : DEFAULT_ERROR_MESSAGE;
}

export interface ErrorDetails {
  status: number;
  message: string;
}

/**
 * What an error screen shows for any thrown value: a route answer (`data(..., { status })`),
 * an `ApiError`, or anything else (a crash: 500 with the generic message).
 */
export function describeError(error: unknown): ErrorDetails {
  if (isRouteErrorResponse(error)) {
    const status = error.status;
    return { status, message: messageFromBody(error.data) ?? STATUS_MESSAGES[status] ?? fallback(error) };
  }
  if (isApiError(error) && error.status >= 400) {
    return {
      status: error.status,
      message: error.message || STATUS_MESSAGES[error.status] || DEFAULT_ERROR_MESSAGE,
    };
  }
  return { status: 500, message: DEFAULT_ERROR_MESSAGE };
}

function fallback(error: { statusText: string }): string {
  return error.statusText || DEFAULT_ERROR_MESSAGE;
}

function messageFromBody(body: unknown): string | undefined {
  if (typeof body === "string" && body.trim()) return body;
  if (
    body &&
    typeof body === "object" &&
    "message" in body &&
    typeof body.message === "string" &&
    body.message
  ) {
    return body.message;
  }
  return undefined;
}

/**
 * A loader's answer for a failed API call, shown with `message` (default: the API's own): the API's
 * status when it refused the visitor's input (a 4xx, such as a NUL byte in the URL: issue 15), else
 * 500 or the API's 5xx. A timeout (408) or no answer (0) is the server's failure, not the visitor's.
 */
export function apiFailureOf(error: unknown, message?: string) {
  const refusedInput = isApiError(error) && error.status >= 400 && error.status !== 408;
  const text = message ?? (isApiError(error) && error.message ? error.message : DEFAULT_ERROR_MESSAGE);
  return data(text, { status: refusedInput ? error.status : 500 });
}

/** Throws the 404 "Page not found" answer from a loader; SSR answers with HTTP 404. */
export function throwNotFound(): never {
  throw data(NOT_FOUND_MESSAGE, { status: 404, statusText: "Not Found" });
}
