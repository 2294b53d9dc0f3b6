import type { InventoryKind } from "@pressguard/domain";
import { type ChangeEvent, useState } from "react";
import { errorIdFor, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import type { InventoryInput } from "./inventory.ts";

interface InventoryFieldsProps {
  idPrefix: string;
  value: InventoryInput;
  onChange: (next: InventoryInput) => void;
  errors: { inventory?: string[]; wordpress?: string[] };
}

const describedBy = (id: string, errors: readonly string[] | undefined) => ({
  "aria-invalid": errors ? true : undefined,
  "aria-describedby": errors ? errorIdFor(id) : undefined,
});

/**
 * A site's inventory: a file to upload (read into the text box, where it can still be looked at) or
 * the pasted output of `wp plugin list --format=json`, what it lists, and WordPress's own version.
 */
export function InventoryFields({ idPrefix, value, onChange, errors }: InventoryFieldsProps) {
  const [fileError, setFileError] = useState<string | null>(null);
  const ids = {
    kind: `${idPrefix}-kind`,
    file: `${idPrefix}-file`,
    text: `${idPrefix}-inventory`,
    wordpress: `${idPrefix}-wordpress`,
  };

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setFileError(null);
    try {
      onChange({ ...value, text: await file.text() });
    } catch {
      setFileError("This file could not be read. Paste its content below instead.");
    }
  }

  const textErrors = errors.inventory;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="The list names"
          htmlFor={ids.kind}
          hint="For a wp-cli list. A composer.lock names both."
        >
          <select
            id={ids.kind}
            className={INPUT_CLASS}
            value={value.kind}
            onChange={(event) => onChange({ ...value, kind: event.target.value as InventoryKind })}
          >
            <option value="plugin">Plugins</option>
            <option value="theme">Themes</option>
          </select>
        </FormField>
        <FormField
          label="Upload a file"
          htmlFor={ids.file}
          optional
          errors={fileError ? [fileError] : undefined}
          hint="A .json saved from wp-cli, or composer.lock."
        >
          <input
            id={ids.file}
            type="file"
            accept=".json,.lock,application/json"
            onChange={(event) => void readFile(event)}
            className="mt-1 block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800"
          />
        </FormField>
      </div>
      <FormField
        label="Your list"
        htmlFor={ids.text}
        errors={textErrors}
        hint={
          <>
            Run <code>wp plugin list --format=json</code> (or <code>wp theme list --format=json</code>) on
            your server and paste what it prints, or paste your <code>composer.lock</code>.
          </>
        }
      >
        <textarea
          id={ids.text}
          rows={8}
          spellCheck={false}
          value={value.text}
          onChange={(event) => onChange({ ...value, text: event.target.value })}
          placeholder='[{"name":"contact-form-7","status":"active","update":"available","version":"5.3.1"}]'
          className={`${INPUT_CLASS} font-mono text-sm`}
          {...describedBy(ids.text, textErrors)}
        />
      </FormField>
      <div className="max-w-xs">
        <FormField label="WordPress version" htmlFor={ids.wordpress} errors={errors.wordpress} optional>
          <input
            id={ids.wordpress}
            type="text"
            inputMode="decimal"
            maxLength={100}
            placeholder="e.g. 6.4.2"
            value={value.wordpress}
            onChange={(event) => onChange({ ...value, wordpress: event.target.value })}
            className={INPUT_CLASS}
            {...describedBy(ids.wordpress, errors.wordpress)}
          />
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
