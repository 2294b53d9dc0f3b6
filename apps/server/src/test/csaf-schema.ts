import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * The OFFICIAL CSAF 2.0 JSON schema (decision 029), copied unchanged from oasis-tcs/csaf into
 * ../shared/schemas/csaf-2.0 beside the repository (its README names the commit), never a copy written
 * by hand. It refers to FIRST's CVSS schemas by their public URLs, which the files declare with a
 * `?date` suffix (and draft-04 `id`): they are added under the bare URL, without `$schema`, before
 * the CSAF schema is compiled, as that README says. Nothing is fetched.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const schemaDirectory = join(repoRoot, "..", "shared", "schemas", "csaf-2.0");
const readSchema = (name: string) =>
  JSON.parse(readFileSync(join(schemaDirectory, name), "utf8")) as Record<string, unknown>;

export const csafSchema = readSchema("csaf_json_schema.json");

const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats.default(ajv);
for (const name of ["cvss-v2.0.json", "cvss-v3.0.json", "cvss-v3.1.json"]) {
  const { $schema: _draft, id: _id, $id: _dated, ...schema } = readSchema(name);
  ajv.addSchema({ ...schema, $id: `https://www.first.org/cvss/${name}` });
}

export const validateCsaf = ajv.compile(csafSchema);

/** Every schema error of many documents, compact enough to read in a failed assertion. */
export function csafErrorsOf(documents: unknown[]): string[] {
  return documents.flatMap((document) =>
    validateCsaf(document)
      ? []
      : (validateCsaf.errors ?? []).map((error) => {
          const id = (document as { document?: { tracking?: { id?: unknown } } }).document?.tracking?.id;
          return `${String(id)} ${error.instancePath} ${error.message}`;
        }),
  );
}
