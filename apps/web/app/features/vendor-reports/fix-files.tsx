import {
  FIX_ATTACHMENT_EXTENSIONS,
  FIX_ATTACHMENT_LIMITS,
  FIX_ATTACHMENT_MESSAGES,
  isFixArchiveName,
  type ReportDetail,
} from "@pressguard/domain";
import { useState } from "react";
import { AttachmentField, addFilesBy, type FileRules } from "../../components/attachment-field.tsx";
import { isApiError } from "../../lib/api/api-error.ts";

/** The fix's zip files (issue 7): picked with the fix form, uploaded before the fix is submitted. */

const ACCEPT = [...FIX_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`), "application/zip"].join(
  ",",
);

/** The API's rules for fix files, with room for what the report holds already. */
export function fixFileRules(storedFixFiles: number): FileRules {
  return {
    isAccepted: isFixArchiveName,
    maxBytes: FIX_ATTACHMENT_LIMITS.maxBytes,
    perReport: Math.max(0, FIX_ATTACHMENT_LIMITS.perReport - storedFixFiles),
    messages: FIX_ATTACHMENT_MESSAGES,
  };
}

const storedFixFilesOf = (report: ReportDetail) =>
  report.attachments.filter((file) => file.kind === "fix").length;

/** Why one upload failed: the API's message for the file field, else the error's. */
function uploadFailure(file: File, error: unknown): string {
  const reason =
    (isApiError(error) && error.errors?.file?.[0]) ||
    (error instanceof Error && error.message) ||
    "not uploaded.";
  return `${file.name}: ${reason}`;
}

/** The picked fix files and their errors; `uploadAll` sends them one by one and keeps the refused ones. */
export function useFixFiles(report: ReportDetail) {
  const stored = storedFixFilesOf(report);
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<string[]>([]);

  /** True when every picked file is stored; the failed ones stay picked, each with its reason. */
  async function uploadAll(upload: (file: File) => Promise<unknown>): Promise<boolean> {
    const kept: File[] = [];
    const failed: string[] = [];
    for (const file of files) {
      try {
        await upload(file);
      } catch (error) {
        kept.push(file);
        failed.push(uploadFailure(file, error));
      }
    }
    setFiles(kept);
    setErrors(failed);
    return failed.length === 0;
  }

  return {
    stored,
    files,
    errors,
    uploadAll,
    pick: (next: File[], refused: string[]) => {
      setFiles(next);
      setErrors(refused);
    },
  };
}

/** The report form's file field, limited to zips and to the fix files the report still takes. */
export function FixFilesField({ id, fixFiles }: { id: string; fixFiles: ReturnType<typeof useFixFiles> }) {
  const rules = fixFileRules(fixFiles.stored);
  return (
    <AttachmentField
      id={id}
      label="Fix files (zip)"
      hint={
        rules.perReport === 0
          ? FIX_ATTACHMENT_MESSAGES.tooMany
          : `The patched release or the changed files as .zip archives: up to ${rules.perReport}${fixFiles.stored > 0 ? " more" : ""} file${rules.perReport === 1 ? "" : "s"} of at most 20 MB each. Only our team and the researcher can download them.`
      }
      files={fixFiles.files}
      errors={fixFiles.errors.length > 0 ? fixFiles.errors : undefined}
      onChange={fixFiles.pick}
      accept={ACCEPT}
      addFiles={(current, picked) => addFilesBy(rules, current, picked)}
    />
  );
}
