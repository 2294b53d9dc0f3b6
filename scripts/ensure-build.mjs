#!/usr/bin/env node
// Builds the web application when its sources changed since the last build (or with --force),
// and stamps build/build-info.json with the build id that /builds/latest.json serves.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { precompress } from "./precompress.mjs";

const root = new URL("..", import.meta.url).pathname;
const inputs = [
  "apps/web",
  "packages/domain/src",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];
const infoFile = join(root, "build", "build-info.json");

function* files(path) {
  const stat = statSync(path);
  if (stat.isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    yield* files(join(path, entry));
  }
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const input of inputs) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    for (const file of files(path)) {
      if (/\.test\.tsx?$/.test(file)) continue;
      hash.update(relative(root, file));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest("hex");
}

const hash = sourceHash();
const force = process.argv.includes("--force");
const previous = existsSync(infoFile) ? JSON.parse(readFileSync(infoFile, "utf8")) : null;
if (!force && previous?.sourceHash === hash && existsSync(join(root, "build", "server", "index.js"))) {
  process.exit(0);
}

console.info(force ? "Building the web application…" : "Web sources changed since the last build: building…");
const result = spawnSync("npx", ["react-router", "build"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
if (result.status !== 0) process.exit(result.status ?? 1);
const compressed = precompress(join(root, "build", "client"));
console.info(`Compressed ${compressed} client files (brotli and gzip).`);
const id = `${new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14)}-${hash.slice(0, 10)}`;
writeFileSync(infoFile, `${JSON.stringify({ id, timestamp: Date.now(), sourceHash: hash }, null, 2)}\n`);
console.info(`Build ${id} ready.`);
