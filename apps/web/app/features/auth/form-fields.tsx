import type { ReactNode } from "react";
import { isApiError } from "../../lib/api/api-error.ts";

export const INPUT_CLASS =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900 shadow-sm focus:border-slate-900 focus:outline-none focus:ring-1 focus:ring-slate-900";

export function Field({ label, htmlFor, children }: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The message to show for a failed auth call: the API's own message, or the error's. */
export function errorMessageOf(error: unknown): string {
  if (isApiError(error) && error.errors) {
    const lines = Object.values(error.errors).flat();
    if (lines.length > 0 && !lines.includes(error.message)) return lines.join(" ");
  }
  return error instanceof Error ? error.message : "An error occurred.";
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
