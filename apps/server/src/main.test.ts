import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openConfiguredDatabase } from "./db/embedded-database.ts";

const MAIN = join(import.meta.dirname, "main.ts");
const children: ChildProcess[] = [];

const directories: string[] = [];
/** A data directory's parent, removed after the file's tests (each holds a ~40 MB database). */
function temporaryDirectory(): string {
  const path = mkdtempSync(join(tmpdir(), "pressguard-main-"));
  // Reachable by the account the embedded PostgreSQL runs as when the tests run as root.
  chmodSync(path, 0o755);
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

function startServer(env: Record<string, string>, nodeOptions: string[] = []): Started {
  const child = spawn(process.execPath, [...nodeOptions, "--import", "tsx", MAIN, "--api-only"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      SEED: "off",
      LOG_LEVEL: "info",
      // Tests never reach the network: the upstream data sources stay off (decision 035).
      KEV_URL: "off",
      EPSS_URL: "off",
      WPORG_API_URL: "off",
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

/** Waits until the server's output holds `text` (a log line written after the event it reports). */
async function waitForOutput(server: Started, text: string, timeoutMs = 10_000): Promise<void> {
  const started = performance.now();
  while (!server.output().includes(text)) {
    if (performance.now() - started > timeoutMs) {
      throw new Error(`no "${text}" in the output within ${timeoutMs} ms:\n${server.output().slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

/** Connects to the inspector named by its argument and pauses the main thread, until killed. */
const PAUSE_SCRIPT = `
  const socket = new WebSocket(process.argv[1]);
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ id: 1, method: "Debugger.enable" }));
    socket.send(JSON.stringify({ id: 2, method: "Debugger.pause" }));
  });
  socket.addEventListener("close", () => process.exit(0));
  socket.addEventListener("error", () => process.exit(1));
`;

// The database variables are removed so these tests always exercise the embedded database.
describe("the server process on the embedded database", () => {
  it("serves the API, refuses a second process on the same data dir, and drains on SIGTERM", async () => {
    const dataDir = join(temporaryDirectory(), "postgres");
    const first = startServer({ EMBEDDED_DB_DIR: dataDir });
    const address = await waitForAddress(first);
    const response = await fetch(`${address}/api/public/footer/metrics`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ active_vdp_directory_count: 0 });
    // The start-up banner (startup-banner.ts) says which mode runs.
    expect(first.output()).toContain(
      `Pressguard mode: development (NODE_ENV unset); listening on ${address}`,
    );

    const second = startServer({ EMBEDDED_DB_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `The embedded database at ${dataDir} is already in use by another process`,
    );

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("shutting down");

    // The data dir was closed cleanly: a new process opens it again.
    // It stopped its PostgreSQL server before exiting: the cluster's lock file is gone.
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(false);
    const third = startServer({ EMBEDDED_DB_DIR: dataDir });
    await waitForAddress(third);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
  }, 60_000);

  it("ends itself when its event loop stops, and the next start opens its data dir", async () => {
    const dataDir = join(temporaryDirectory(), "postgres");
    // The inspector lets the test hold the main thread, as a loop that never ends would; the
    // watchdog's own thread keeps running.
    const first = startServer({ EMBEDDED_DB_DIR: dataDir, STALL_LIMIT_SECONDS: "2" }, [
      "--inspect=127.0.0.1:0",
    ]);
    const address = await waitForAddress(first);
    // A write the process answered for must survive its end: PostgreSQL replays its log on opening.
    const csrf = await fetch(`${address}/api/csrf-cookie`);
    const token = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const signUp = await fetch(`${address}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `XSRF-TOKEN=${token}`, "x-xsrf-token": token },
      body: JSON.stringify({
        name: "Stalled",
        email: "stalled@example.com",
        password: "correct horse battery staple",
        role: "researcher",
      }),
    });
    expect(signUp.status).toBe(202);

    const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(first.output())?.[1];
    expect(inspector).toBeDefined();
    const pauser = spawn(
      process.execPath,
      ["--experimental-websocket", "-e", PAUSE_SCRIPT, inspector ?? ""],
      {
        stdio: "ignore",
      },
    );
    children.push(pauser);
    const stalledAt = performance.now();
    expect(await first.exited).toBeNull(); // killed by a signal, not exited with a code
    expect((performance.now() - stalledAt) / 1000).toBeLessThan(15);
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(first.output()).toMatch(/"level":60,.*"msg":"the event loop has not turned for \d+ s/);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    // Its PostgreSQL server was told to stop too, instead of running on without a parent.
    for (let i = 0; i < 150 && existsSync(join(dataDir, "postmaster.pid")); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(false);

    const second = startServer({ EMBEDDED_DB_DIR: dataDir });
    const again = await waitForAddress(second);
    expect((await fetch(`${again}/healthz`)).status).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const database = await openConfiguredDatabase(
      { embeddedDir: dataDir },
      { info() {}, warn() {}, error() {} },
    );
    try {
      const { rows } = await database.sql.query<{ email: string }>(
        "select email from users where email = 'stalled@example.com'",
      );
      expect(rows).toHaveLength(1);
    } finally {
      await database.close();
    }
  }, 60_000);

  it("restarts its PostgreSQL server when it is killed, answering 503 meanwhile and never ending itself", async () => {
    const dataDir = join(temporaryDirectory(), "postgres");
    const server = startServer({ EMBEDDED_DB_DIR: dataDir });
    const address = await waitForAddress(server);
    const postmasterOf = () => Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    const killed = postmasterOf();
    process.kill(killed, "SIGKILL");
    const statuses = new Set<number>();
    const started = performance.now();
    let answered = false;
    // A route that reads the database on every request (a signed-in session's lookup).
    while (performance.now() - started < 30_000) {
      const response = await fetch(`${address}/api/user`, {
        headers: { cookie: "pressguard_session=x" },
      }).catch(() => null);
      if (response) {
        statuses.add(response.status);
        if (response.status === 503) expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
        if (
          response.status === 401 &&
          existsSync(join(dataDir, "postmaster.pid")) &&
          postmasterOf() !== killed
        ) {
          answered = true;
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answered, `statuses seen: ${[...statuses].join(", ")}\n${server.output().slice(-3000)}`).toBe(
      true,
    );
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toContain("embedded PostgreSQL stopped unexpectedly; restarting it");
    // The new postmaster accepts connections a moment before the supervisor's readiness check logs it.
    await waitForOutput(server, "embedded PostgreSQL restarted");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);

  it("stops with a message naming a bad variable", async () => {
    const server = startServer({ PORT: "not-a-port" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("Invalid configuration");
    expect(server.output()).toContain("PORT: ");
  });
});
