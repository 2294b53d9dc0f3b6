/**
 * Gives a web server of the end-to-end suite (playwright.config.ts) its own seeded database without
 * importing the bundled data again: the first of the three servers' commands seeds one template
 * directory (a server started on it until its /healthz answers, then stopped as a supervisor stops
 * it), the others wait for it, and each copies it to its own directory. Three first starts at once
 * took 57 s on two cores; one first start and two copies take about 40 s (2026-12-06).
 *
 * Usage: node e2e/seeded-data-dir.mjs <template> <target>. A target that exists is left as it is.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

const SEED_TIMEOUT_MS = 170_000;

const [template, target] = process.argv.slice(2);
if (!template || !target) {
  console.error("usage: node e2e/seeded-data-dir.mjs <template> <target>");
  process.exit(2);
}

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server on the template directory, waits until it answers, and stops it. */
async function seedTemplate() {
  rmSync(template, { recursive: true, force: true });
  const port = await freePort();
  const { SENTRY_DSN: _reportsNowhere, ...env } = process.env;
  const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      EMBEDDED_DB_DIR: template,
      ATTACHMENTS_DIR: `${template}-attachments`,
      EXPORTS_DIR: `${template}-exports`,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => server.once("exit", (code, signal) => resolve(code ?? signal)));
  const deadline = Date.now() + SEED_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the seeding server exited with ${server.exitCode}`);
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    if (answer?.ok) break;
    if (Date.now() > deadline) {
      server.kill("SIGKILL");
      throw new Error(`the seeding server did not answer within ${SEED_TIMEOUT_MS / 1000} s`);
    }
    await sleep(250);
  }
  server.kill("SIGTERM");
  const ended = await exited;
  if (ended !== 0) throw new Error(`the seeding server stopped with ${ended}`);
  rmSync(`${template}-attachments`, { recursive: true, force: true });
  rmSync(`${template}-exports`, { recursive: true, force: true });
}

async function main() {
  if (existsSync(target)) return;
  const ready = `${template}.seeded`;
  // Not `<dir>.lock`: the server locks its database directory under that name.
  const lock = `${template}.seeding`;
  const deadline = Date.now() + SEED_TIMEOUT_MS + 30_000;
  while (!existsSync(ready)) {
    let owner = false;
    try {
      mkdirSync(lock);
      owner = true;
    } catch {
      if (Date.now() > deadline) throw new Error(`no seeded template at ${template} in time`);
      await sleep(500);
    }
    if (owner) {
      try {
        if (!existsSync(ready)) {
          await seedTemplate();
          writeFileSync(ready, "");
        }
      } finally {
        rmdirSync(lock);
      }
    }
  }
  // -a keeps the owner: as root the embedded PostgreSQL runs as an account of its own (decision 037).
  execFileSync("cp", ["-a", template, target]);
}

main().catch((error) => {
  console.error(`e2e/seeded-data-dir.mjs: ${error.message}`);
  process.exit(1);
});
