import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { openSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const ROOT = resolve(import.meta.dirname, "..");

/** A process of the application (the server, the import CLI) started as CI and operators start it. */
export interface AppProcess {
  child: ChildProcess;
  log: string;
  /** The exit code or signal once it ended; null while it runs. */
  ended(): { code: number | null; signal: NodeJS.Signals | null } | null;
  waitForExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

export function startAppProcess(script: string, args: string[], env: Record<string, string>, logDir: string) {
  const log = join(
    logDir,
    `${script.replaceAll("/", "_")}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.log`,
  );
  const output = openSync(log, "a");
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, script), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      // The suite never reaches the network: the upstream data sources stay off (decision 035).
      KEV_URL: "off",
      EPSS_URL: "off",
      WPORG_API_URL: "off",
      ...env,
    },
    stdio: ["ignore", output, output],
  });
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = once(child, "exit").then(([code, signal]) => {
    exit = { code, signal };
    return exit;
  });
  return {
    child,
    log,
    ended: () => exit,
    waitForExit: () => exited,
    kill(signal: NodeJS.Signals) {
      if (!exit) child.kill(signal);
    },
  } satisfies AppProcess;
}

/** The API server (`--api-only`) on `port`, answered once it listens. */
export async function startServer(port: number, env: Record<string, string>, logDir: string) {
  const server = startAppProcess(
    "apps/server/src/main.ts",
    ["--api-only"],
    {
      HOST: "127.0.0.1",
      PORT: String(port),
      SEED: "off",
      // CAPTCHA=off is accepted only where NODE_ENV says so (decision 018).
      NODE_ENV: "test",
      CAPTCHA: "off",
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_FACTOR: "1000000",
      API_RATE_LIMIT_ANONYMOUS: "1000000000",
      ...env,
    },
    logDir,
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.ended()) throw new Error(`the server on ${port} exited at start; see ${server.log}`);
    try {
      // The port answers 503 while the database is prepared (decision 016): ready is /healthz 200.
      if ((await fetch(`${base}/healthz`)).ok) return { ...server, base };
      await sleep(250);
    } catch {
      await sleep(250);
    }
  }
  server.kill("SIGKILL");
  throw new Error(`the server on ${port} did not listen within 120 s; see ${server.log}`);
}

export type Server = Awaited<ReturnType<typeof startServer>>;

/** SIGTERM, then SIGKILL after 10 s. */
export async function stopProcess(process: AppProcess | undefined) {
  if (!process || process.ended()) return;
  process.kill("SIGTERM");
  const timer = setTimeout(() => process.kill("SIGKILL"), 10_000);
  await process.waitForExit();
  clearTimeout(timer);
}
