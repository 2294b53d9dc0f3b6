import { isApiError } from "../../lib/api/api-error.ts";
import { messageOf } from "../../lib/errors.ts";

/** One message for `lines` of a failed call: them joined, unless the error's own message is one of them. */
export function messageOfLines(error: unknown, lines: readonly string[]): string {
  if (isApiError(error) && lines.length > 0 && !lines.includes(error.message)) return lines.join(" ");
  return messageOf(error);
}

/** The message to show for a failed auth call: the API's own message, or the error's. */
export function errorMessageOf(error: unknown): string {
  return messageOfLines(error, isApiError(error) && error.errors ? Object.values(error.errors).flat() : []);
}

/** An inline error (spec §8 messages are shown as they are). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

export function FormNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="status" className="rounded-md border border-lime-200 bg-lime-50 px-3 py-2 text-sm text-lime-900">
      {message}
    </p>
  );
}
