import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTemporaryDirectory, temporaryDirectory } from "./support.ts";

/**
 * Load from wrk (Debian's `wrk` package), a load generator written in C. On a machine where the load
 * generator shares the server's cores, Node's own HTTP client spent about 0.5 ms of CPU per request
 * that the server then lacked (bench/README.md, ninth session); wrk spends a few microseconds.
 */

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  body?: string;
}

export interface LoadResult {
  requests: number;
  rps: number;
  /** Milliseconds. */
  p50: number;
  p95: number;
  p99: number;
}

/** Whether `wrk` is on the PATH. */
export const wrkInstalled = (): boolean => spawnSync("wrk", ["--version"]).error === undefined;

let runs = 0;

/**
 * Keeps `connections` requests in flight for `seconds`, sending `requests` in turn; `unique` gives
 * every GET path a parameter of its own (no answer from the response store). Refuses a run in which
 * any request failed.
 */
export async function runWrk(options: {
  port: number;
  requests: LoadRequest[];
  seconds: number;
  connections: number;
  unique: boolean;
}): Promise<LoadResult> {
  const directory = temporaryDirectory("pressguard-wrk-");
  try {
    const file = join(directory, "requests.tsv");
    writeFileSync(
      file,
      options.requests
        .map((entry) => [entry.method, entry.path, ...(entry.body ? [entry.body] : [])].join("\t"))
        .join("\n"),
    );
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        "wrk",
        [
          "-t1",
          `-c${options.connections}`,
          `-d${options.seconds}s`,
          "--timeout",
          "10s",
          "-s",
          join(import.meta.dirname, "wrk-load.lua"),
          `http://127.0.0.1:${options.port}`,
        ],
        {
          env: {
            ...process.env,
            WRK_REQUESTS: file,
            WRK_PREFIX: `r${runs++}-`,
            ...(options.unique && { WRK_UNIQUE: "1" }),
          },
        },
      );
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      child.stderr.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`)),
      );
    });
    const line = output.split("\n").find((entry) => entry.startsWith("WRK_RESULT "));
    if (!line) throw new Error(`wrk gave no result:\n${output}`);
    const result = JSON.parse(line.slice("WRK_RESULT ".length)) as {
      requests: number;
      microseconds: number;
      errors: number;
      p50: number;
      p95: number;
      p99: number;
    };
    if (result.errors > 0) throw new Error(`wrk: ${result.errors} of ${result.requests} requests failed`);
    return {
      requests: result.requests,
      rps: Math.round(result.requests / (result.microseconds / 1e6)),
      p50: result.p50 / 1000,
      p95: result.p95 / 1000,
      p99: result.p99 / 1000,
    };
  } finally {
    removeTemporaryDirectory(directory);
  }
}
