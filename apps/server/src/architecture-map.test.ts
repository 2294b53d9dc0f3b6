import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md is the map of the code (issue 36): every server module, background job and
 * route file is named there. A new one the map does not name fails this test, which says what to add.
 */
const SERVER_SRC = dirname(fileURLToPath(import.meta.url));
const MODULES = join(SERVER_SRC, "modules");
const JOBS = join(SERVER_SRC, "jobs");
const MAP = "docs/architecture.md";
const MODULES_HEADING = "## The modules of the server";

const map = readFileSync(resolve(SERVER_SRC, "../../..", MAP), "utf8");

/** The text from `heading` to the next heading of the same or a higher level. */
function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${MAP} has no "${heading}" section`);
  const level = heading.split(" ")[0] ?? "##";
  const rest = text.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level.length}} `, "m"));
  return next === -1 ? rest : rest.slice(0, next);
}

const modulesSection = sectionOf(map, MODULES_HEADING);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The rows of the modules table (the table headed "| module |"): `name` in the first cell → the row. */
const moduleRows = new Map<string, string>();
const sectionLines = modulesSection.split("\n");
const header = sectionLines.findIndex((line) => /^\|\s*module\s*\|/.test(line));
if (header === -1) throw new Error(`${MAP}: no table headed "| module |" under "${MODULES_HEADING}"`);
for (const line of sectionLines.slice(header + 1)) {
  if (!line.startsWith("|")) break;
  const name = /^\|\s*`([^`]+)`\s*\|/.exec(line)?.[1];
  if (name) moduleRows.set(name, line);
}

/**
 * What the map says of one module: its row, and its own file list when it has one (a paragraph or list
 * under the table that opens with "`name`,", as `reports` has), up to the next heading.
 */
function moduleText(name: string): string {
  const opening = modulesSection.search(new RegExp(`^\`${escaped(name)}\`,`, "m"));
  const list = opening === -1 ? "" : (modulesSection.slice(opening).split(/^#/m)[0] ?? "");
  return `${moduleRows.get(name) ?? ""}\n${list}`;
}

/** Whether the map names `path` (under modules/) as a path of its own, not as the end of a longer one. */
function namesPath(path: string): boolean {
  return new RegExp(`(^|[^\\w./-])(apps/server/src/)?(modules/)?${escaped(path)}\\b`).test(map);
}

const moduleFolders = readdirSync(MODULES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const jobFiles = readdirSync(JOBS)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .sort();

/** Route files, as paths under modules/: every `routes.ts` and `*-routes.ts`, at any depth. */
const routeFiles = readdirSync(MODULES, { recursive: true, encoding: "utf8" })
  .map((path) => path.split("\\").join("/"))
  .filter((path) => {
    const name = path.split("/").pop() ?? "";
    return name === "routes.ts" || name.endsWith("-routes.ts");
  })
  .sort();

describe(`${MAP}, the map of the code`, () => {
  it("has a row in the modules table for every folder of apps/server/src/modules, and none for a folder that is gone", () => {
    expect(moduleRows.size, `no \`module\` rows found under "${MODULES_HEADING}"`).toBeGreaterThan(0);
    const missing = moduleFolders
      .filter((name) => !moduleRows.has(name))
      .map((name) => `module \`${name}\` (apps/server/src/modules/${name}/) has no row in the modules table`);
    const gone = [...moduleRows.keys()]
      .filter((name) => !moduleFolders.includes(name))
      .map((name) => `the modules table's row \`${name}\` names no folder of apps/server/src/modules`);
    expect([...missing, ...gone], `${MAP} is out of date`).toEqual([]);
  });

  it("names every file of the composition root's folder (apps/server/src/composition)", () => {
    const files = readdirSync(join(MODULES, "..", "composition")).filter(
      (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
    );
    expect(files.length).toBeGreaterThan(0);
    const missing = files
      .filter((name) => !map.includes(name))
      .map((name) => `apps/server/src/composition/${name} is not named`);
    expect(missing, `${MAP} is out of date`).toEqual([]);
  });

  it("names every job file of apps/server/src/jobs", () => {
    expect(jobFiles.length).toBeGreaterThan(0);
    const missing = jobFiles
      .filter((name) => !map.includes(`jobs/${name}`))
      .map((name) => `job apps/server/src/jobs/${name} is not named ("jobs/${name}")`);
    expect(missing, `${MAP} is out of date`).toEqual([]);
  });

  it("names every route file of a module: by its path, or by its file name in its module's row or file list", () => {
    expect(routeFiles.length).toBeGreaterThan(0);
    const missing = routeFiles
      .filter((path) => {
        const [module = "", ...rest] = path.split("/");
        const inModule = rest.join("/");
        return !namesPath(path) && !moduleText(module).includes(`\`${inModule}\``);
      })
      .map((path) => {
        const [module = "", ...rest] = path.split("/");
        return (
          `route file apps/server/src/modules/${path} is not named (neither "${path}" nor ` +
          `\`${rest.join("/")}\` in the \`${module}\` row or file list)`
        );
      });
    expect(missing, `${MAP} is out of date`).toEqual([]);
  });
});
