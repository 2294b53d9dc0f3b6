import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The repository root, where `npm start` runs. */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, "../../../..");

/**
 * A seeded embedded PostgreSQL data directory (stopped) to copy instead of importing the bundled data
 * on start (local iterations only; CI leaves it unset and the server imports into a fresh directory, as
 * on a first `npm start`).
 */
const TEMPLATE_VARIABLE = "SMOKE_DATA_TEMPLATE";
/** A fresh directory imports the bundled data first: generous, so a slow machine is not a failure. */
const START_TIMEOUT_MS = 15 * 60_000;
/** The upstream data sources a server started by a test leaves off (decision 035): no network in tests. */
const OFFLINE_DATA_SOURCES = { KEV_URL: "off", EPSS_URL: "off", WPORG_API_URL: "off" } as const;
/** The last part of the server's output, kept for failure messages and for the requests a test counts. */
const OUTPUT_TAIL = 200_000;

/** A port nobody listens on: bound once by a throwaway server (a child cannot report port 0 back). */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", done);
  });
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (!address || typeof address === "string") throw new Error("no port was assigned");
  return address.port;
}

export interface ProductionServer {
  /** `http://127.0.0.1:<port>`, the configured port. */
  origin: string;
  port: number;
  /** The address the server's own "ready on" line names. */
  announcedAddress: string;
  output: () => string;
  /** A position in the output, for `outputSince`. */
  mark: () => number;
  /** What the server wrote since `mark()` (while it is still within the kept tail). */
  outputSince: (mark: number) => string;
  /** npm's own pid: what a supervisor that signals one process (`docker stop`) signals. */
  pid: number;
  /** Whether any process of the group (npm, its shell, the server) is still running. */
  running: () => boolean;
  stop: () => Promise<void>;
}

/**
 * Starts the product exactly as a user does: `npm start` in the repository (which checks the web
 * build, then runs `node --import tsx apps/server/src/main.ts`), on a configured free port, with a
 * fresh data directory and no environment but PATH and HOME, so every other setting is its default
 * (SEED=auto imports the bundled data) — except the upstream data sources, whose defaults are the real
 * CISA, FIRST and WordPress.org hosts: tests never reach the network (decision 035). `stop()` ends the
 * process group and removes the directory.
 */
export async function startProductionServer(
  extraEnv: Record<string, string> = {},
): Promise<ProductionServer> {
  const template = process.env[TEMPLATE_VARIABLE];
  if (template && !existsSync(template)) throw new Error(`${TEMPLATE_VARIABLE}=${template} does not exist`);
  const workDir = mkdtempSync(join(tmpdir(), "pressguard-smoke-"));
  // mkdtemp's 0700 would close it to the account the embedded PostgreSQL runs as when this is root.
  chmodSync(workDir, 0o755);
  const embeddedDir = join(workDir, "postgres");
  if (template) cpSync(template, embeddedDir, { recursive: true });
  const port = await findFreePort();
  const child = spawn("npm", ["start"], {
    cwd: REPOSITORY_ROOT,
    // Its own process group: npm runs the server in a shell, and stop() must reach all of them.
    detached: true,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? workDir,
      PORT: String(port),
      EMBEDDED_DB_DIR: embeddedDir,
      ATTACHMENTS_DIR: join(workDir, "attachments"),
      EXPORTS_DIR: join(workDir, "exports"),
      ...OFFLINE_DATA_SOURCES,
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  /** Characters written since the start; the kept tail is its last OUTPUT_TAIL. */
  let written = 0;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    written += text.length;
    output = (output + text).slice(-OUTPUT_TAIL);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));

  const stop = async () => {
    await stopProcessGroup(child, exited);
    rmSync(workDir, { recursive: true, force: true });
  };

  try {
    const announcedAddress = await waitUntilReady(child, () => output);
    return {
      origin: `http://127.0.0.1:${port}`,
      port,
      announcedAddress,
      output: () => output,
      mark: () => written,
      outputSince(mark: number) {
        const kept = written - output.length;
        if (mark < kept) throw new Error("the output since that mark is no longer kept");
        return output.slice(mark - kept);
      },
      pid: child.pid ?? 0,
      running: () => signalGroup(child, 0),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const match = output().match(/ready on (http:\/\/[^\s"]+)/);
    if (match?.[1]) return match[1];
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`npm start was not ready within ${START_TIMEOUT_MS / 1000} s:\n${output()}`);
}

/** SIGTERM to npm, its shell and the server (which drains and closes its database), SIGKILL after 15 s. */
/** Signals every process of the child's group; false when none is left. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false; // no process of the group is left
  }
}

async function stopProcessGroup(child: ChildProcess, exited: Promise<number | null>) {
  if (child.pid === undefined) return;
  signalGroup(child, "SIGTERM");
  const deadline = Date.now() + 15_000;
  // npm may exit before the server has closed its data directory: wait for the whole group.
  while (signalGroup(child, 0) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  if (signalGroup(child, 0)) signalGroup(child, "SIGKILL");
  await exited;
}
