import { type ChangeEvent, useState } from "react";
import type { FieldErrorMap } from "../../lib/form-errors.ts";
import { FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import type { FieldInputProps } from "../../ui/use-schema-form.ts";
import type { InventoryValues } from "./inventory.ts";

interface InventoryFieldsProps {
  /** The form's `inputProps` of the list's kind, the list and WordPress's version. */
  field: (name: keyof InventoryValues) => FieldInputProps;
  errors: FieldErrorMap;
  /** The text of an uploaded file, for the list's box. */
  onFileRead: (text: string) => void;
  idPrefix: string;
}

/**
 * A site's inventory: a file to upload (read into the text box, where it can still be looked at) or
 * the pasted output of `wp plugin list --format=json`, what it lists, and WordPress's own version.
 */
export function InventoryFields({ field, errors, onFileRead, idPrefix }: InventoryFieldsProps) {
  const [fileError, setFileError] = useState<string | null>(null);
  const fileId = `${idPrefix}-file`;

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setFileError(null);
    try {
      onFileRead(await file.text());
    } catch {
      setFileError("This file could not be read. Paste its content below instead.");
    }
  }

  const kind = field("kind");
  const text = field("inventory");
  const wordpress = field("wordpress");
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="The list names"
          htmlFor={kind.id}
          errors={errors.kind}
          hint="For a wp-cli list. A composer.lock names both."
        >
          <select {...kind}>
            <option value="plugin">Plugins</option>
            <option value="theme">Themes</option>
          </select>
        </FormField>
        <FormField
          label="Upload a file"
          htmlFor={fileId}
          optional
          errors={fileError ? [fileError] : undefined}
          hint="A .json saved from wp-cli, or composer.lock."
        >
          <input
            id={fileId}
            type="file"
            accept=".json,.lock,application/json"
            onChange={(event) => void readFile(event)}
            className="mt-1 block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800"
          />
        </FormField>
      </div>
      <FormField
        label="Your list"
        htmlFor={text.id}
        errors={errors.inventory}
        hint={
          <>
            Run <code>wp plugin list --format=json</code> (or <code>wp theme list --format=json</code>) on
            your server and paste what it prints, or paste your <code>composer.lock</code>.
          </>
        }
      >
        <textarea
          rows={8}
          spellCheck={false}
          placeholder='[{"name":"contact-form-7","status":"active","update":"available","version":"5.3.1"}]'
          {...text}
          className={`${INPUT_CLASS} font-mono text-sm`}
        />
      </FormField>
      <div className="max-w-xs">
        <FormField label="WordPress version" htmlFor={wordpress.id} errors={errors.wordpress} optional>
          <input type="text" inputMode="decimal" maxLength={100} placeholder="e.g. 6.4.2" {...wordpress} />
        </FormField>
      </div>
    </div>
  );
}

/** What the parser skipped or merged, in its own sentences, beside the result. */
export function InventoryProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <div
      role="status"
      className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="font-semibold">About your list:</p>
      <ul className="mt-1 list-disc pl-5">
        {problems.map((problem, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two problems may read the same.
          <li key={index} className="break-words">
            {problem}
          </li>
        ))}
      </ul>
    </div>
  );
}
