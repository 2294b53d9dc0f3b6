import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What every benchmark needs around its measurements: ports nobody else holds (several benches, or a
 * bench and a test run, side by side) and temporary directories that are gone when the process ends,
 * however it ends (a benchmark database is 0.5–1.5 GB).
 */

/** A TCP port that was free a moment ago on 127.0.0.1 (the system's choice for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** A server's answer, read to its end. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Bytes of the body. */
  bytes: number;
  /** The body as UTF-8, when asked for (`text: true`); otherwise empty (a 48 MB zip is only counted). */
  text: string;
  /** From the call to the body's last byte. */
  ms: number;
}

/**
 * One request to a server on 127.0.0.1 over `agent` (node:http, no client timeout: a first sync
 * answers after a minute), its body read to the end.
 */
export function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  options: { body?: string; headers?: OutgoingHttpHeaders; text?: boolean } = {},
): Promise<Answer> {
  const startedAt = performance.now();
  const { body, text: wantText = false } = options;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: {
          ...(body !== undefined && {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          }),
          ...options.headers,
        },
      },
      (response) => {
        let bytes = 0;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (wantText) chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            bytes,
            text: wantText ? Buffer.concat(chunks).toString("utf8") : "",
            ms: performance.now() - startedAt,
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/**
 * Asks `path` every 200 ms until it answers 200: a server's `/healthz` once it is ready. Gives up
 * when `exited()` says the server's process ended, or after `timeoutMs`.
 */
export async function waitForOk(
  agent: Agent,
  port: number,
  path: string,
  { exited = () => false, timeoutMs = 120_000 }: { exited?: () => boolean; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`the server on ${port} exited before ${path} answered 200`);
    const answer = await send(agent, port, "GET", path).catch(() => null);
    if (answer?.status === 200) return;
    if (performance.now() > deadline)
      throw new Error(`${path} on ${port} did not answer 200 in ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

const temporaryDirectories = new Set<string>();
let cleanupInstalled = false;

/** A new directory in the system's temp folder, removed at exit (also on Ctrl-C and SIGTERM). */
export function temporaryDirectory(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // Reachable by the account the embedded PostgreSQL runs as when the bench runs as root.
  chmodSync(path, 0o755);
  temporaryDirectories.add(path);
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.on("exit", removeTemporaryDirectories);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        removeTemporaryDirectories();
        process.exit(130);
      });
    }
  }
  return path;
}

/** Removes one temporary directory now (its files are no longer needed). */
export function removeTemporaryDirectory(path: string): void {
  rmSync(path, { recursive: true, force: true });
  temporaryDirectories.delete(path);
}

function removeTemporaryDirectories(): void {
  for (const path of temporaryDirectories) rmSync(path, { recursive: true, force: true });
  temporaryDirectories.clear();
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time, in microseconds, that process `pid` (all its threads) has used so far, from
 * /proc/<pid>/stat (user + system). Read before and after a run, it gives the server's own CPU per
 * request, which the load generator sharing the cores does not blur.
 */
export function cpuMicrosecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1_000_000) / TICKS_PER_SECOND;
}

/** `--name value` from the command line, or undefined. */
export function textOption(name: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

/** `--name a,b`: its comma-separated parts, trimmed and lower-cased, or undefined. */
export const listOption = (name: string): string[] | undefined =>
  textOption(name)
    ?.split(",")
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);

/** `--name <number>` from the command line, or `fallback`. */
export const numberOption = (name: string, fallback: number): number => Number(textOption(name) ?? fallback);
