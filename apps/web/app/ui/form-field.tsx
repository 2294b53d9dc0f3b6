import type { ReactNode } from "react";

export const INPUT_CLASS =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-slate-900 focus:outline-none focus:ring-1 focus:ring-slate-900 disabled:bg-slate-100 disabled:text-slate-600 aria-invalid:border-red-600";

interface FormFieldProps {
  label: string;
  htmlFor: string;
  /** The field's messages (spec §5), shown under it and tied to the input by `aria-describedby`. */
  errors?: readonly string[] | undefined;
  hint?: ReactNode;
  optional?: boolean;
  children: ReactNode;
}

/** The id of a field's error text, for the input's `aria-describedby`. */
export const errorIdFor = (htmlFor: string) => `${htmlFor}-error`;

/** A labelled form field with its hint and its validation messages. */
export function FormField({ label, htmlFor, errors, hint, optional, children }: FormFieldProps) {
  return (
    <div>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {label}
        {optional && <span className="ml-1 font-normal text-slate-500">(optional)</span>}
      </label>
      {children}
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      {errors && errors.length > 0 && (
        <p id={errorIdFor(htmlFor)} className="mt-1 text-sm text-red-700">
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}

/** A message for the whole form (a failed save), announced to screen readers. */
export function FormAlert({ messages }: { messages: readonly string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/** A failed load of one part of a page (spec §8 store failures: the message as it is). */
export function LoadError({ message }: { message: string }) {
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {message}
    </p>
  );
}
