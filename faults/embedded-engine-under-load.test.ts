import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researcherToken, submitUnderFault, withDatabase } from "./api.ts";
import { recordFigures } from "./figures.ts";
import { type Server, startServer, stopProcess } from "./processes.ts";

/**
 * Issue 37: the embedded PostgreSQL (the default `npm start` engine, decision 037) under load, as the
 * PostgreSQL restart test does for an external server. One server on its own embedded cluster, 300
 * signed-in report submissions 10 at a time, each with an Idempotency-Key and retried with it on a
 * network error, a 503 or a 409. After the 100th acknowledgement the postmaster is killed (SIGKILL: a
 * crash); after the 200th every process of the cluster is frozen (SIGSTOP: an engine that stops making
 * progress with statements in flight). Expected: every submission acknowledged and stored once, the
 * server never exits, and it answers a database read again within 5 s of the crash (the postmaster's
 * exit is seen at once) and within 20 s of the freeze (the supervisor probes every 2 s with a 2 s
 * timeout, a probe at a time, and kills the cluster after three misses in a row: about 12 s with the
 * restart).
 */

const SUBMISSIONS = 300;
const CONCURRENCY = 10;
const PORT = Number(process.env.FAULTS_PORT ?? 3241) + 10;
const GIVE_UP_MS = 90_000;
const RECOVERY_PROBE_MS = 45_000;

let workDir: string;
let dataDir: string;
let server: Server;

/** The cluster's postmaster, from its lock file. */
const postmasterPid = () => Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);

/** The postmaster and every process it started (the backends and the auxiliary processes). */
function clusterPids(): number[] {
  const postmaster = postmasterPid();
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

/** The database over the cluster's socket, as the fault tests' admin client reads it. */
const databaseUrl = () => `postgres://pressguard@localhost/pressguard?host=${encodeURIComponent(dataDir)}`;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "pg-faults-embedded-"));
  // Run as root, PostgreSQL runs as another account, which must reach the data directory.
  chmodSync(workDir, 0o755);
  dataDir = join(workDir, "pg");
  server = await startServer(
    PORT,
    {
      EMBEDDED_DB_DIR: dataDir,
      ATTACHMENTS_DIR: join(workDir, "attachments"),
      EXPORTS_DIR: join(workDir, "exports"),
      PREVIEW_TOKEN_KEY: "fault-suite-preview-token-key-0123456789",
      CAPTCHA_HMAC_KEY: "fault-suite-captcha-hmac-key-0123456789ab",
    },
    workDir,
  );
});

/** The processes the test froze: killed at the end, should the server not have done it. */
const frozen: number[] = [];

afterAll(async () => {
  for (const pid of frozen) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  await stopProcess(server);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("the embedded PostgreSQL under load", () => {
  it("loses and duplicates nothing through a crash and a freeze of the engine, and answers again after each", async () => {
    const token = await researcherToken(server.base, databaseUrl());
    const run = randomUUID().slice(0, 8);
    const recoveries: Promise<number>[] = [];

    /** Kills or freezes the engine; answers the seconds until the server answered a database read again. */
    async function faultAndTimeRecovery(signal: "SIGKILL" | "SIGSTOP"): Promise<number> {
      const startedAt = performance.now();
      if (signal === "SIGKILL") process.kill(postmasterPid(), "SIGKILL");
      else
        for (const pid of clusterPids()) {
          frozen.push(pid);
          process.kill(pid, "SIGSTOP");
        }
      // A read that needs the database, once the fault has had time to be felt.
      await sleep(500);
      while (performance.now() - startedAt < RECOVERY_PROBE_MS) {
        const response = await fetch(`${server.base}/api/researcher/reports`, {
          headers: { accept: "application/json", authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(5_000),
        }).catch(() => null);
        if (response?.status === 200) return (performance.now() - startedAt) / 1000;
        await response?.text();
        await sleep(100);
      }
      return Number.POSITIVE_INFINITY;
    }

    const { figures, failures } = await submitUnderFault({
      bases: [server.base],
      token,
      titlePrefix: `Embedded fault ${run} #`,
      count: SUBMISSIONS,
      concurrency: CONCURRENCY,
      giveUpMs: GIVE_UP_MS,
      serverEnded: () => server.ended() !== null,
      onAcknowledged: (acknowledged) => {
        if (acknowledged === 100) recoveries.push(faultAndTimeRecovery("SIGKILL"));
        if (acknowledged === 200) recoveries.push(faultAndTimeRecovery("SIGSTOP"));
      },
    });
    const [afterKill, afterFreeze] = await Promise.all(recoveries);

    const { rows } = await withDatabase(databaseUrl(), (client) =>
      client.query<{ title: string; copies: number }>(
        "select title, count(*)::int as copies from reports where title like $1 group by title",
        [`Embedded fault ${run} #%`],
      ),
    );
    const present = rows.length;
    const duplicated = rows.reduce((sum, row) => sum + row.copies - 1, 0);
    const seconds = (value: number | undefined) =>
      value !== undefined && Number.isFinite(value) ? Number(value.toFixed(2)) : "never";
    recordFigures("embedded_engine_under_load", {
      submissions: SUBMISSIONS,
      ...figures,
      present,
      lost: SUBMISSIONS - present,
      duplicated,
      seconds_to_recover_after_kill: seconds(afterKill),
      seconds_to_recover_after_freeze: seconds(afterFreeze),
      server_exited: server.ended() !== null,
    });

    expect(failures).toEqual([]);
    expect(figures.acknowledged).toBe(SUBMISSIONS);
    expect(present).toBe(SUBMISSIONS);
    expect(duplicated).toBe(0);
    expect(server.ended()).toBeNull();
    expect(afterKill).toBeLessThan(5);
    expect(afterFreeze).toBeLessThan(20);
  });
});
