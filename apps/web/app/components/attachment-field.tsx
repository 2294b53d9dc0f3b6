import {
  isAcceptedAttachmentName,
  REPORT_ATTACHMENT_EXTENSIONS,
  REPORT_ATTACHMENT_LIMITS,
  REPORT_ATTACHMENT_MESSAGES,
} from "@pressguard/domain";
import { useRef } from "react";
import { errorIdFor, FormField } from "../ui/form-field.tsx";

/** The `accept` list of the file picker: the extensions the API takes. */
const ACCEPT = REPORT_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`).join(",");

/** Picking the same file twice attaches it once. */
const fileKey = (file: File) => `${file.name}:${file.size}:${file.lastModified}`;

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The API's rules for one kind of file: which names, how large, how many. */
export interface FileRules {
  isAccepted: (filename: string) => boolean;
  maxBytes: number;
  /** How many more files the report takes. */
  perReport: number;
  messages: { type: string; tooLarge: string; tooMany: string };
}

const PROOF_RULES: FileRules = {
  isAccepted: isAcceptedAttachmentName,
  maxBytes: REPORT_ATTACHMENT_LIMITS.maxBytes,
  perReport: REPORT_ATTACHMENT_LIMITS.perReport,
  messages: REPORT_ATTACHMENT_MESSAGES,
};

/**
 * Adds `picked` to `current` by `rules`: the files that fit, and a message for each one refused,
 * naming it.
 */
export function addFilesBy(rules: FileRules, current: readonly File[], picked: readonly File[]) {
  const files = [...current];
  const errors: string[] = [];
  for (const file of picked) {
    if (!rules.isAccepted(file.name)) errors.push(`${file.name}: ${rules.messages.type}`);
    else if (file.size > rules.maxBytes) errors.push(`${file.name}: ${rules.messages.tooLarge}`);
    else if (file.size === 0) errors.push(`${file.name}: The file is empty.`);
    else if (files.some((kept) => fileKey(kept) === fileKey(file))) continue;
    else if (files.length >= rules.perReport) errors.push(`${file.name}: ${rules.messages.tooMany}`);
    else files.push(file);
  }
  return { files, errors };
}

/** The report form's proof-of-concept files (5 files, 20 MB each, accepted kinds). */
export function addAttachments(current: readonly File[], picked: readonly File[]) {
  return addFilesBy(PROOF_RULES, current, picked);
}

interface AttachmentFieldProps {
  id: string;
  label: string;
  hint: string;
  files: readonly File[];
  errors: readonly string[] | undefined;
  onChange: (files: File[], errors: string[]) => void;
  /** Limits what may be picked (the fix's zip); the proof of concept takes every accepted kind. */
  accept?: string;
  addFiles?: (current: readonly File[], picked: readonly File[]) => { files: File[]; errors: string[] };
}

/** Picked files with their name, size and a remove button; uploaded by the form that holds them. */
export function AttachmentField({
  id,
  label,
  hint,
  files,
  errors,
  onChange,
  accept = ACCEPT,
  addFiles = addAttachments,
}: AttachmentFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <FormField label={label} htmlFor={id} errors={errors} hint={hint} optional>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={accept}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorIdFor(id) : undefined}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50"
        onChange={(event) => {
          const added = addFiles(files, [...(event.target.files ?? [])]);
          onChange(added.files, added.errors);
          // The same file can be picked again after removing it.
          event.target.value = "";
        }}
      />
      {files.length > 0 && (
        <ul
          className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200"
          aria-label="Attached files"
        >
          {files.map((file, index) => (
            <li key={fileKey(file)} className="flex items-center gap-3 px-3 py-2 text-sm">
              <span className="min-w-0 flex-1 break-all text-slate-800">{file.name}</span>
              <span className="shrink-0 text-slate-500">{formatFileSize(file.size)}</span>
              <button
                type="button"
                className="shrink-0 text-sm font-medium text-red-700 underline-offset-4 hover:underline"
                aria-label={`Remove ${file.name}`}
                onClick={() => {
                  onChange(
                    files.filter((_, position) => position !== index),
                    [],
                  );
                  input.current?.focus();
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </FormField>
  );
}
