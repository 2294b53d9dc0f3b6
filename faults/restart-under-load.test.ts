import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researcherToken, submitUnderFault, withDatabase } from "./api.ts";
import { createFaultCluster, type FaultCluster } from "./cluster.ts";
import { recordFigures } from "./figures.ts";
import { type Server, startServer, stopProcess } from "./processes.ts";

/**
 * Issue 15, finding 1: two instances on one database, 300 signed-in report submissions 10 at a time,
 * PostgreSQL restarted after the 100th. Each submission carries an Idempotency-Key and is retried with
 * it on a network error, a 503 or a 409 (its first attempt still holding the key), as the web client
 * does. Expected: every submission acknowledged and stored once, both instances up (never restarted),
 * answering again within 10 s of the restart.
 */

const SUBMISSIONS = 300;
const CONCURRENCY = 10;
const RESTART_AFTER = 100;
const PORTS = [Number(process.env.FAULTS_PORT ?? 3241), Number(process.env.FAULTS_PORT ?? 3241) + 1];
/** A submission gives up this long after its first attempt. */
const GIVE_UP_MS = 60_000;
/** The recovery probe gives up after this long (the figure is then Infinity). */
const RECOVERY_PROBE_MS = 30_000;

let cluster: FaultCluster;
let databaseUrl: string;
let workDir: string;
const servers: Server[] = [];

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "pressguard-faults-load-"));
  cluster = await createFaultCluster();
  databaseUrl = await cluster.createDatabase("pressguard_faults_load");
  const env = {
    DATABASE_URL: databaseUrl,
    ATTACHMENTS_DIR: join(workDir, "attachments"),
    EXPORTS_DIR: join(workDir, "exports"),
    // Both instances sign and check the same links.
    PREVIEW_TOKEN_KEY: "fault-suite-preview-token-key-0123456789",
    CAPTCHA_HMAC_KEY: "fault-suite-captcha-hmac-key-0123456789ab",
  };
  // The first migrates; the second then starts on a migrated database.
  servers.push(await startServer(PORTS[0]!, env, workDir));
  servers.push(await startServer(PORTS[1]!, env, workDir));
});

afterAll(async () => {
  for (const server of servers) await stopProcess(server);
  await cluster?.remove();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("a PostgreSQL restart under load", () => {
  it("loses and duplicates nothing, keeps both instances up, and they answer again within 10 s", async () => {
    const token = await researcherToken(servers[0]!.base, databaseUrl);
    const run = randomUUID().slice(0, 8);
    let restarted: Promise<number> | null = null;

    /** Restarts PostgreSQL; answers the seconds until both instances answered a database read again. */
    async function restartAndTimeRecovery(): Promise<number> {
      const startedAt = performance.now();
      await cluster.restart();
      const answering = servers.map(async (server) => {
        while (performance.now() - startedAt < RECOVERY_PROBE_MS) {
          const response = await fetch(`${server.base}/api/researcher/reports`, {
            headers: { accept: "application/json", authorization: `Bearer ${token}` },
          }).catch(() => null);
          if (response?.status === 200) return;
          await response?.text();
          await sleep(100);
        }
        throw new Error(`${server.base} did not answer within ${RECOVERY_PROBE_MS / 1000} s`);
      });
      return Promise.all(answering).then(
        () => (performance.now() - startedAt) / 1000,
        () => Number.POSITIVE_INFINITY,
      );
    }

    const { figures, failures } = await submitUnderFault({
      bases: servers.map((server) => server.base),
      token,
      titlePrefix: `Fault load ${run} #`,
      count: SUBMISSIONS,
      concurrency: CONCURRENCY,
      giveUpMs: GIVE_UP_MS,
      serverEnded: (base) => servers.find((server) => server.base === base)?.ended() != null,
      onAcknowledged: (acknowledged) => {
        if (acknowledged === RESTART_AFTER) restarted ??= restartAndTimeRecovery();
      },
    });
    const secondsToRecover = await (restarted ?? Promise.resolve(Number.NaN));

    const { rows } = await withDatabase(databaseUrl, (client) =>
      client.query<{ title: string; copies: number }>(
        "select title, count(*)::int as copies from reports where title like $1 group by title",
        [`Fault load ${run} #%`],
      ),
    );
    const present = rows.length;
    const duplicated = rows.reduce((sum, row) => sum + row.copies - 1, 0);
    const exited = servers.filter((server) => server.ended() !== null).length;
    recordFigures("postgres_restart_under_load", {
      submissions: SUBMISSIONS,
      ...figures,
      present,
      lost: SUBMISSIONS - present,
      duplicated,
      seconds_to_recover: Number.isFinite(secondsToRecover) ? Number(secondsToRecover.toFixed(2)) : "never",
      instances_exited: exited,
    });

    expect(failures).toEqual([]);
    expect(figures.acknowledged).toBe(SUBMISSIONS);
    expect(present).toBe(SUBMISSIONS);
    expect(duplicated).toBe(0);
    expect(exited).toBe(0);
    expect(secondsToRecover).toBeLessThan(10);
  });
});
