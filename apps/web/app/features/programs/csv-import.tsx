import { type CsvImportAnswer, CsvImportUpload, PROGRAM_FIELDS } from "@pressguard/domain";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { useTokenDownload } from "../../lib/api/token-download.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { errorIdFor, FormAlert } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { CSV_TEMPLATE_PATH, programsApi } from "./api.ts";
import { useProgramListChanged } from "./use-program-mutations.ts";

/** One problem of a row, on a line of its own; the column it names (`slug: …`) set apart. */
function RowProblem({ message }: { message: string }) {
  const [column, text] = message.split(/: (.*)/s);
  const named = text !== undefined && (PROGRAM_FIELDS as readonly string[]).includes(column ?? "");
  return (
    <span className="block pl-4">
      {named ? (
        <>
          <code className="font-mono text-xs">{column}</code> {text}
        </>
      ) : (
        message
      )}
    </span>
  );
}

const FIELDS = ["file"] as const;

/** Many programs at once from a CSV file (spec §7 `import-csv`, a multipart body). */
export function CsvImport() {
  const client = useApiClient();
  const { apiBase } = usePublicConfig();
  // Token mode: the link alone carries no token, so the template is fetched with it.
  const download = useTokenDownload();
  const changed = useProgramListChanged();
  const [downloadProblem, setDownloadProblem] = useState<string | null>(null);
  const [result, setResult] = useState<CsvImportAnswer | null>(null);
  const form = useSchemaForm({
    schema: CsvImportUpload,
    fields: FIELDS,
    initialValues: { file: null as File | null },
    idPrefix: "csv",
    async onSubmit(data) {
      setDownloadProblem(null);
      setResult(null);
      const answer = await programsApi.importCsv(client, data.file);
      setResult(answer);
      if (answer.created > 0) await changed();
    },
  });
  const { errors, busy } = form;
  const fileId = form.idOf("file");

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        One program per row, with the columns{" "}
        <code className="font-mono text-xs break-words">{PROGRAM_FIELDS.join(", ")}</code>. At most 1,000 rows
        and 1 MB. Rows with a mistake are listed with their line number; the others are added as pending
        programs.{" "}
        <a
          href={`${apiBase.replace(/\/+$/, "")}${CSV_TEMPLATE_PATH}`}
          className="link"
          download
          onClick={(event) => download(event, "programs-template.csv", setDownloadProblem)}
        >
          Download the CSV template
        </a>
      </p>
      <form
        method="post"
        onSubmit={form.handleSubmit}
        noValidate
        className="flex flex-col gap-3 sm:flex-row sm:items-center"
      >
        <label htmlFor={fileId} className="sr-only">
          CSV file
        </label>
        <input
          id={fileId}
          type="file"
          name="file"
          accept=".csv,text/csv"
          onChange={(event) => form.set("file", event.target.files?.[0] ?? null)}
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={errors.file ? errorIdFor(fileId) : undefined}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-900 hover:file:bg-slate-200 sm:w-auto"
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Importing…" : "Import"}
        </button>
      </form>
      {errors.file && (
        <p id={errorIdFor(fileId)} className="text-sm text-red-700">
          {errors.file.join(" ")}
        </p>
      )}
      <FormAlert messages={downloadProblem ? [downloadProblem] : errors[FORM_ERROR_KEY]} />
      {result && (
        <div role="status" className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm">
          <p className="font-semibold text-slate-900">
            {result.created} of {result.rows} rows imported
          </p>
          {result.errors.length > 0 && (
            <ul aria-label="Rows not imported" className="space-y-1 text-red-800">
              {result.errors.map((row) => (
                <li key={row.line}>
                  <span className="font-semibold">Line {row.line}:</span>
                  {row.messages.map((message) => (
                    <RowProblem key={message} message={message} />
                  ))}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
