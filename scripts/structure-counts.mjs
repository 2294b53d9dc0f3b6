#!/usr/bin/env node
// The server's structure in the counts issue 36 set goals on, for this checkout or another one:
//   node scripts/structure-counts.mjs [checkout]
// - module edges: imports (outside tests and test kits) from one folder of apps/server/src/modules into
//   another, as module pairs and as file imports, and those that reach into another module's queries or
//   context file (the lint's `modules-meet-through-services` rule forbids them now);
// - SQL statements written outside queries files and the db layer (a template or string literal that
//   opens with select, insert into, update … set, delete from or with … as);
// - the lines of the composition root, apps/server/src/app.ts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, resolve, sep } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const server = join(root, "apps/server/src");
const modulesDir = join(server, "modules");
if (!existsSync(modulesDir)) throw new Error(`No apps/server/src/modules in ${root}`);

const isTestFile = (path) =>
  /\.test\.tsx?$/.test(path) || /test-kit|\/testing\.ts$|\/test\/|\/smoke\//.test(path);

function sourceFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const modules = readdirSync(modulesDir).filter((name) => statSync(join(modulesDir, name)).isDirectory());
const pairs = new Set();
let fileImports = 0;
let intoQueriesOrContext = 0;
for (const module of modules) {
  for (const file of sourceFiles(join(modulesDir, module))) {
    if (isTestFile(file)) continue;
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/from\s+"(\.[^"]+)"/g)) {
      const target = relative(modulesDir, normalize(join(dirname(file), specifier)));
      if (target.startsWith("..")) continue;
      const other = target.split(sep)[0];
      if (other === module) continue;
      pairs.add(`${module}→${other}`);
      fileImports++;
      if (/(queries|context)(\.ts)?$/.test(target)) intoQueriesOrContext++;
    }
  }
}

const STATEMENT = /(`|")\s*(select|insert into|update [a-z_]+ set|delete from|with [a-z_]+ as)\b/;
const inlineSql = sourceFiles(server)
  .filter((file) => !isTestFile(file) && !/-queries\.ts$|\/queries\.ts$/.test(file))
  .filter((file) => !relative(server, file).startsWith(`db${sep}`))
  .flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, index) => (STATEMENT.test(line) ? [`${relative(root, file)}:${index + 1}`] : [])),
  );

const appLines = readFileSync(join(server, "app.ts"), "utf8").split("\n").length - 1;

const lines = [
  `checkout: ${root}`,
  `modules: ${modules.length}`,
  `module pairs that import: ${pairs.size}; file imports between modules: ${fileImports}`,
  `imports into another module's queries or context file: ${intoQueriesOrContext}`,
  `SQL statements outside queries files and db/: ${inlineSql.length}`,
  ...inlineSql.map((place) => `  ${place}`),
  `apps/server/src/app.ts: ${appLines} lines`,
];
process.stdout.write(`${lines.join("\n")}\n`);
