import { type CsvImportAnswer, PROGRAM_FIELDS, Program } from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import { CSV_MAX_ROWS, CsvFormatError, readCsv, writeCsv } from "./csv.ts";
import { MESSAGES, type ProgramParts, slugConflict } from "./rules.ts";

/** The programs' CSV import (issue 6, decision 006) and its template. */
export function createCsvImport({ database, queries }: Pick<ProgramParts, "database" | "queries">) {
  return {
    /** CSV import (decision 006): every row through the Program schema; valid rows created together. */
    async importCsv(vendorId: number, text: string): Promise<CsvImportAnswer> {
      let records: ReturnType<typeof readCsv>;
      try {
        records = readCsv(text);
      } catch (error) {
        if (error instanceof CsvFormatError) throw new AppError("validation", { message: error.message });
        throw error;
      }
      const [header, ...rows] = records;
      if (!header) throw new AppError("validation", { message: "The file is empty." });
      const columns = header.cells.map((cell) => cell.trim().toLowerCase());
      const unknown = columns.filter((column) => !(PROGRAM_FIELDS as readonly string[]).includes(column));
      if (unknown.length > 0 || !columns.includes("name") || !columns.includes("slug")) {
        throw new AppError("validation", {
          message: `The first line must be the template's header: ${PROGRAM_FIELDS.join(",")}${
            unknown.length > 0
              ? ` (unknown column${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")})`
              : ""
          }.`,
        });
      }
      if (rows.length > CSV_MAX_ROWS) {
        throw new AppError("validation", {
          message: `The file has ${rows.length.toLocaleString("en")} rows; at most ${CSV_MAX_ROWS.toLocaleString("en")} can be imported at once. Split it into smaller files.`,
        });
      }
      if (rows.length === 0)
        throw new AppError("validation", { message: "The file has no rows under its header." });

      const errors: CsvImportAnswer["errors"] = [];
      const seen = new Map<string, number>();
      let created = 0;
      await database.sql.transaction(async (tx) => {
        for (const row of rows) {
          // A blank cell is a field not given: required ones get their message, the plan its default.
          const values = Object.fromEntries(
            columns.flatMap((column, index) => {
              const cell = row.cells[index]?.trim() ?? "";
              return cell === "" ? [] : [[column, cell]];
            }),
          );
          const result = Program.safeParse(values);
          if (!result.success) {
            errors.push({
              line: row.line,
              messages: result.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`),
            });
            continue;
          }
          const program = result.data;
          const key = `${program.kind}/${program.slug}`;
          const earlier = seen.get(key);
          if (earlier !== undefined) {
            errors.push({
              line: row.line,
              messages: [`slug: The slug ${program.slug} is already on line ${earlier}.`],
            });
            continue;
          }
          seen.set(key, row.line);
          const conflict = slugConflict(await queries.findBySlug(program.kind, program.slug, tx), vendorId);
          if (conflict) {
            errors.push({ line: row.line, messages: [`slug: ${conflict}`] });
            continue;
          }
          if ((await queries.insertProgram(vendorId, program, tx)) === null) {
            errors.push({ line: row.line, messages: [`slug: ${MESSAGES.slugOwn}`] });
            continue;
          }
          created += 1;
        }
      });
      return { rows: rows.length, created, errors };
    },

    csvTemplate(): string {
      return writeCsv([
        PROGRAM_FIELDS,
        [
          "plugin",
          "1.0.0",
          "My Plugin",
          "https://wordpress.org/plugins/my-plugin/",
          "What the plugin does, in one sentence.",
          "WooCommerce",
          "security@example.com",
          "my-plugin",
          "https://example.com",
          "free",
        ],
      ]);
    },
  };
}
