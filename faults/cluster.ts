import { execFile, execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** PostgreSQL 15's programs (Debian's layout); PG_BIN overrides. */
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

/**
 * A throwaway PostgreSQL cluster of the fault suite's own: created in a temporary directory, on
 * loopback only, restarted by the tests and removed at the end, so that restarting it never disturbs
 * the shared server other tests use. Run as root (CI), its programs run as the `postgres` user.
 */
export interface FaultCluster {
  port: number;
  /** postgres://…/postgres on the cluster; a superuser without a password (trust on loopback). */
  url: string;
  /** A new empty database on the cluster, and its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is terminated (57P01), then the server comes back. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

async function runAsOwner(program: string, args: string[]) {
  const command = join(PG_BIN, program);
  const asRoot = process.getuid?.() === 0;
  await run(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, {
    timeout: 60_000,
  });
}

export async function createFaultCluster(
  port = Number(process.env.FAULTS_PG_PORT ?? 5499),
): Promise<FaultCluster> {
  const dir = mkdtempSync(join(tmpdir(), "pressguard-faults-pg-"));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = join(dir, "data");
  await runAsOwner("initdb", ["-D", dataDir, "-A", "trust", "-U", "pressguard", "--no-sync", "-E", "UTF8"]);
  const pgCtl = (...args: string[]) =>
    runAsOwner("pg_ctl", [
      "-D",
      dataDir,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
      ...args,
    ]);
  await pgCtl("start");
  const url = `postgres://pressguard@127.0.0.1:${port}/postgres`;
  let running = true;
  const stop = async () => {
    if (running) await pgCtl("stop", "-m", "immediate");
    running = false;
  };
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://pressguard@127.0.0.1:${port}/${name}`;
    },
    async restart() {
      await pgCtl("restart", "-m", "fast");
    },
    stop,
    async remove() {
      try {
        await stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
