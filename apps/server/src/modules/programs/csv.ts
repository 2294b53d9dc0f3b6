import { CSV_IMPORT_MAX_BYTES, CSV_IMPORT_TOO_LARGE_MESSAGE } from "@pressguard/domain";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";

/** Limits of a program CSV import (issue 6; its size limit is the domain's CSV_IMPORT_MAX_BYTES). */
export const CSV_MAX_ROWS = 1_000;

/**
 * A cell that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is
 * written with a leading apostrophe, so opening the file never executes it (OWASP CSV injection).
 */
function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** CSV text the product writes: every string cell neutralised, CRLF line ends for spreadsheets. */
export function writeCsv(rows: readonly (readonly (string | null)[])[]): string {
  return stringify(
    rows.map((row) => row.map((cell) => neutraliseFormula(cell ?? ""))),
    { record_delimiter: "windows" },
  );
}

export interface CsvRecord {
  /** The line of the file where the record starts (the header is line 1). */
  line: number;
  cells: string[];
}

export class CsvFormatError extends Error {}

export class CsvTooLargeError extends Error {}

/**
 * The uploaded file's bytes, counted as they arrive: past {@link CSV_IMPORT_MAX_BYTES} it is a
 * {@link CsvTooLargeError}, whatever the line structure and however the network cut the upload
 * (the multipart limit is one byte more, so a longer file always shows at least that byte). The
 * rest is drained, not kept, so the request ends normally.
 */
export async function readCsvUpload(file: AsyncIterable<Buffer> & { truncated?: boolean }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    size += chunk.length;
    if (size <= CSV_IMPORT_MAX_BYTES) chunks.push(chunk);
  }
  if (size > CSV_IMPORT_MAX_BYTES || file.truncated) throw new CsvTooLargeError(CSV_IMPORT_TOO_LARGE_MESSAGE);
  return Buffer.concat(chunks);
}

/** The bytes as UTF-8 text without NUL bytes; null for a spreadsheet, an image or another encoding. */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Parses CSV text into records with their line numbers; malformed CSV is a {@link CsvFormatError}. */
export function readCsv(text: string): CsvRecord[] {
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    // `info.lines` is the line a record ends on; a record spans as many lines as its raw text has breaks.
    return records.map(({ record, info }) => ({ line: info.lines - newlinesIn(record), cells: record }));
  } catch (error) {
    throw new CsvFormatError(`The file is not valid CSV. ${plainCsvProblem(error)}`);
  }
}

const QUOTING_HELP =
  'Put a cell that holds a comma, a quote or a line break in double quotes, and write each double quote inside it twice ("").';

/** What csv-parse found, said for a person with a spreadsheet rather than in the parser's words. */
function plainCsvProblem(error: unknown): string {
  const { code, lines } = (error ?? {}) as { code?: string; lines?: number };
  const where = typeof lines === "number" && lines > 0 ? `Line ${lines}: ` : "";
  switch (code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return `A cell opens with a double quote that is never closed, so the file ends inside it. ${QUOTING_HELP}`;
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `${where}a quoted cell goes on after its closing quote. ${QUOTING_HELP}`;
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_OPENING_QUOTE":
      return `${where}a double quote in the middle of a cell. ${QUOTING_HELP}`;
    default:
      return `${where}the file could not be read as comma-separated values. Save it as CSV (UTF-8) from your spreadsheet, or start from the template.`;
  }
}

function newlinesIn(record: readonly string[]): number {
  let count = 0;
  for (const cell of record) for (const char of cell) if (char === "\n") count += 1;
  return count;
}
