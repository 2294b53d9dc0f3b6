import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../apps/server/src/db/client.ts";
import { isDatabaseUnavailable } from "../apps/server/src/db/connection-errors.ts";
import { createFaultCluster, type FaultCluster } from "./cluster.ts";

let cluster: FaultCluster;
let database: Database;

beforeAll(async () => {
  cluster = await createFaultCluster();
  database = await openDatabase({
    url: await cluster.createDatabase("pressguard_faults_connections"),
    poolSize: 4,
  });
  await database.migrate();
});

afterAll(async () => {
  await database?.close();
  await cluster?.remove();
});

async function terminate(pid: number) {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query("select pg_terminate_backend($1)", [pid]);
  } finally {
    await admin.end();
  }
}

describe("database connections under faults", () => {
  it("a transaction whose backend is terminated between two statements fails as unavailable, and the process lives on", async () => {
    const outcome = database.sql.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>("select pg_backend_pid() as pid");
      await terminate(rows[0]!.pid);
      // The server's 57P01 reaches the client while no query of it runs: an 'error' event.
      await sleep(300);
      await tx.query("select 1");
    });
    const error = await outcome.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    // The dead connection went back to the pool as broken: the next transactions get live ones.
    for (let i = 0; i < 6; i += 1)
      await expect(database.sql.transaction((tx) => tx.query("select 1 as one"))).resolves.toEqual({
        rows: [{ one: 1 }],
      });
  });

  it("after a restart of PostgreSQL the pools connect again by themselves", async () => {
    await database.sql.query("select 1");
    await database.sql.query("select $1::int as n", [1], { prepare: true });
    await cluster.restart();
    const startedAt = Date.now();
    let answered = false;
    while (!answered && Date.now() - startedAt < 10_000) {
      try {
        await database.sql.query("select 1");
        await database.sql.query("select $1::int as n", [1], { prepare: true });
        await database.sql.transaction((tx) => tx.query("select 1"));
        answered = true;
      } catch (error) {
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
        await sleep(100);
      }
    }
    expect(answered).toBe(true);
  });
});
