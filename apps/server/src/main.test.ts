import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "main.ts");
const children: ChildProcess[] = [];

const directories: string[] = [];
/** A data directory's parent, removed after the file's tests (each holds a ~40 MB database). */
function temporaryDirectory(): string {
  const path = mkdtempSync(join(tmpdir(), "pressguard-main-"));
  directories.push(path);
  return path;
}
afterAll(() => {
  for (const path of directories.splice(0)) rmSync(path, { recursive: true, force: true });
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "--api-only"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      SEED: "off",
      LOG_LEVEL: "info",
      ...env,
    },
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForAddress(server: Started): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const match = server.output().match(/ready on (http:\/\/[\d.]+:\d+)/);
    if (match?.[1]) return match[1];
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

// The database variables are removed so these tests always exercise the embedded database.
describe("the server process on the embedded database", () => {
  it("serves the API, refuses a second process on the same data dir, and drains on SIGTERM", async () => {
    const dataDir = join(temporaryDirectory(), "pglite");
    const first = startServer({ PGLITE_DIR: dataDir });
    const address = await waitForAddress(first);
    const response = await fetch(`${address}/api/public/footer/metrics`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ active_vdp_directory_count: 0 });
    // The start-up banner (startup-banner.ts) says which mode runs.
    expect(first.output()).toContain(
      `Pressguard mode: development (NODE_ENV unset); listening on ${address}`,
    );

    const second = startServer({ PGLITE_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `The embedded database at ${dataDir} is already in use by another process`,
    );

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("shutting down");

    // The data dir was closed cleanly: a new process opens it again.
    const third = startServer({ PGLITE_DIR: dataDir });
    await waitForAddress(third);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
  }, 60_000);

  it("stops with a message naming a bad variable", async () => {
    const server = startServer({ PGLITE_DIR: "memory://", PORT: "not-a-port" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("Invalid configuration");
    expect(server.output()).toContain("PORT: ");
  });
});
