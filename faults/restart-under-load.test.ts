import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonHeaders, reportBody, researcherToken, withDatabase } from "./api.ts";
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
const RETRIED_STATUSES = new Set([409, 503]);
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
    const figures = { acknowledged: 0, failed: 0, retries: 0, unavailable503: 0, inProgress409: 0 };
    const failures: string[] = [];
    let restarted: Promise<number> | null = null;

    async function submit(index: number) {
      const server = servers[index % servers.length]!;
      const base = server.base;
      const key = randomUUID();
      const body = JSON.stringify(reportBody(`Fault load ${run} #${index}`, index % 20));
      const startedAt = Date.now();
      for (;;) {
        let status: number | string;
        try {
          const response = await fetch(`${base}/api/reports`, {
            method: "POST",
            headers: jsonHeaders(token, { "idempotency-key": key }),
            body,
          });
          status = response.status;
          const text = await response.text();
          if (status === 201) {
            figures.acknowledged += 1;
            if (figures.acknowledged === RESTART_AFTER) restarted ??= restartAndTimeRecovery();
            return;
          }
          if (status === 503) {
            figures.unavailable503 += 1;
            expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
          }
          if (status === 409) figures.inProgress409 += 1;
          if (!RETRIED_STATUSES.has(status)) {
            failures.push(`#${index}: ${status} ${text.slice(0, 200)}`);
            figures.failed += 1;
            return;
          }
        } catch (error) {
          status = String((error as Error).cause ?? error);
        }
        if (server.ended() || Date.now() - startedAt > GIVE_UP_MS) {
          failures.push(`#${index}: gave up after ${status}`);
          figures.failed += 1;
          return;
        }
        figures.retries += 1;
        await sleep(200);
      }
    }

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

    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < SUBMISSIONS) await submit(next++);
      }),
    );
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
