/**
 * `npm run db:import -- <file.jsonl[.gz]> [more files] [--kind vulns|plugins]`
 *
 * Imports seed-format JSON Lines files into the database the server uses (DATABASE_URL, else PGlite
 * at PGLITE_DIR), migrating it first. The kind of each file is read from its first valid line unless
 * --kind says it. Exit status: 0 when something was imported, 1 when nothing was, or a file could not
 * be read, or the database could not be opened.
 */
import { ConfigError, loadConfig } from "../config.ts";
import type { Database } from "./client.ts";
import { DirectoryLockedError } from "./directory-lock.ts";
import { openDatabaseForCommand } from "./embedded-database.ts";
import { type ImportProgress, type ImportSummary, importPlugins, importVulnerabilities } from "./import.ts";
import { detectRecordKind, parseJsonLine, type RecordKind, readLines } from "./import-records.ts";
import { recordImportedSeedFile } from "./seed.ts";

const USAGE = "usage: npm run db:import -- <file.jsonl[.gz]> [more files] [--kind vulns|plugins]";
const MAX_REJECTIONS_SHOWN = 50;
/** Without a terminal (CI logs, pipes), one progress line per this many records. */
const PLAIN_PROGRESS_EVERY = 5000;

interface Arguments {
  files: string[];
  kind: RecordKind | null;
}

/** The parsed arguments, or the text to print and the exit status. */
function parseArguments(argv: string[]): Arguments | { message: string; status: number } {
  const files: string[] = [];
  let kind: RecordKind | null = null;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") return { message: USAGE, status: 0 };
    if (argument === "--kind" || argument.startsWith("--kind=")) {
      const value = argument === "--kind" ? argv[++index] : argument.slice("--kind=".length);
      if (value !== "vulns" && value !== "plugins") {
        return { message: `--kind must be vulns or plugins\n${USAGE}`, status: 1 };
      }
      kind = value;
    } else if (argument.startsWith("--")) {
      return { message: `unknown option ${argument}\n${USAGE}`, status: 1 };
    } else {
      files.push(argument);
    }
  }
  return files.length > 0 ? { files, kind } : { message: USAGE, status: 1 };
}

/** The kind of records in a file, from its first line that is a recognisable record. */
async function detectFileKind(path: string): Promise<RecordKind | null> {
  let looked = 0;
  for await (const { text } of await readLines(path)) {
    const json = parseJsonLine(text);
    const kind = json.ok ? detectRecordKind(json.value) : null;
    if (kind) return kind;
    if (++looked >= 1000) break;
  }
  return null;
}

function progressPrinter(file: string) {
  const startedAt = performance.now();
  const interactive = process.stderr.isTTY === true;
  let nextPlainLine = PLAIN_PROGRESS_EVERY;
  const rate = (count: number) => Math.round(count / Math.max((performance.now() - startedAt) / 1000, 0.001));
  return {
    update(progress: ImportProgress) {
      const done = progress.imported + progress.rejected;
      const line = `${file}: ${done.toLocaleString("en")} records (${rate(done).toLocaleString("en")}/s), ${progress.rejected} rejected`;
      if (interactive) {
        process.stderr.write(`\r\x1b[2K${line}`);
      } else if (done >= nextPlainLine) {
        process.stderr.write(`${line}\n`);
        nextPlainLine = (Math.floor(done / PLAIN_PROGRESS_EVERY) + 1) * PLAIN_PROGRESS_EVERY;
      }
    },
    done() {
      if (interactive) process.stderr.write("\r\x1b[2K");
      return (performance.now() - startedAt) / 1000;
    },
  };
}

function report(file: string, summary: ImportSummary, seconds: number) {
  for (const rejection of summary.rejected.slice(0, MAX_REJECTIONS_SHOWN)) {
    process.stdout.write(`line ${rejection.line}: ${rejection.reason}\n`);
  }
  const hidden = summary.rejected.length - MAX_REJECTIONS_SHOWN;
  if (hidden > 0) process.stdout.write(`… and ${hidden} more rejected lines\n`);
  process.stdout.write(
    `${file} (${summary.kind}): ${summary.read} read, ${summary.imported} imported ` +
      `(${summary.inserted} new, ${summary.updated} updated, ${summary.unchanged} unchanged), ` +
      `${summary.rejected.length} rejected, in ${seconds.toFixed(1)} s\n`,
  );
}

async function importFile(database: Database, file: string, forcedKind: RecordKind | null) {
  const kind = forcedKind ?? (await detectFileKind(file));
  if (!kind) throw new Error("no vulnerability or plugin record found; pass --kind vulns|plugins");
  const progress = progressPrinter(file);
  const run = kind === "vulns" ? importVulnerabilities : importPlugins;
  try {
    const summary = await run(database, file, { onProgress: progress.update });
    report(file, summary, progress.done());
    return summary;
  } catch (error) {
    progress.done();
    throw error;
  }
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  if ("message" in args) {
    process.stderr.write(`${args.message}\n`);
    return args.status;
  }
  const config = loadConfig();
  const database = await openDatabaseForCommand(config.database);
  let imported = 0;
  let failed = false;
  try {
    await database.migrate();
    for (const file of args.files) {
      try {
        imported += (await importFile(database, file, args.kind)).imported;
        // The bundled files, once both are in, mark the database seeded: `npm start` will not redo them.
        await recordImportedSeedFile(database, file);
      } catch (error) {
        failed = true;
        process.stderr.write(`${file}: ${(error as Error).message}\n`);
      }
    }
  } finally {
    await database.close();
  }
  return !failed && imported > 0 ? 0 : 1;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof DirectoryLockedError;
    process.stderr.write(`${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
    process.exitCode = 1;
  },
);
