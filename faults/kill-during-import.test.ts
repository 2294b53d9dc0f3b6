import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFaultCluster, type FaultCluster } from "./cluster.ts";
import { recordFigures } from "./figures.ts";
import { startAppProcess } from "./processes.ts";

/**
 * `npm run db:import` of the bundled vulnerabilities into PostgreSQL, killed (SIGKILL) once its first
 * batches are committed, then run again: imports are per-batch transactions, so the killed run left
 * whole batches only, and the re-run ends with the same database as an import never interrupted.
 * Bounded: the first RECORDS lines of the bundled file (the whole file takes minutes).
 */

const BUNDLED = resolve(import.meta.dirname, "../data/seed/wordpress-vulns/vulns.jsonl.gz");
const RECORDS = 3000;
/** The importer's default batch (import.ts). */
const BATCH = 1000;
const TABLES = ["products", "vulnerabilities", "affected_ranges", "credits", "researchers"] as const;

let cluster: FaultCluster;
let workDir: string;
let file: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "pressguard-faults-import-"));
  const lines = gunzipSync(readFileSync(BUNDLED)).toString("utf8").split("\n").slice(0, RECORDS);
  file = join(workDir, "vulns-head.jsonl.gz");
  writeFileSync(file, gzipSync(`${lines.join("\n")}\n`));
  cluster = await createFaultCluster();
});

afterAll(async () => {
  await cluster?.remove();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function query<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

async function countsOf(url: string) {
  const counts: Record<string, number> = {};
  for (const table of TABLES)
    counts[table] = (await query<{ n: number }>(url, `select count(*)::int as n from ${table}`))[0]!.n;
  return counts;
}

/** The import CLI on `url`; its exit status and output. */
async function runImport(url: string) {
  const cli = startAppProcess("apps/server/src/db/import-cli.ts", [file], { DATABASE_URL: url }, workDir);
  const { code } = await cli.waitForExit();
  return { code, output: readFileSync(cli.log, "utf8") };
}

describe("a kill during an import", () => {
  it("leaves whole batches only, and the re-run ends as an uninterrupted import", async () => {
    // The uninterrupted import to compare with runs meanwhile.
    const reference = await cluster.createDatabase("pressguard_faults_import_reference");
    const referenceRun = runImport(reference);
    const killed = await cluster.createDatabase("pressguard_faults_import_killed");
    const cli = startAppProcess(
      "apps/server/src/db/import-cli.ts",
      [file],
      { DATABASE_URL: killed },
      workDir,
    );
    let atKill = 0;
    for (let polls = 0; polls < 1200 && !cli.ended(); polls += 1) {
      const rows = await query<{ n: number }>(killed, "select count(*)::int as n from vulnerabilities").catch(
        () => [{ n: 0 }],
      );
      atKill = rows[0]!.n;
      if (atKill > 0) {
        cli.kill("SIGKILL");
        break;
      }
      await sleep(50);
    }
    const exit = await cli.waitForExit();
    expect(exit.signal, "the import ended before the kill: nothing was tested").toBe("SIGKILL");
    const afterKill = await countsOf(killed);

    expect((await referenceRun).code).toBe(0);
    const expected = await countsOf(reference);
    expect(expected.vulnerabilities).toBe(RECORDS);

    const rerun = await runImport(killed);
    const afterRerun = await countsOf(killed);
    const again = await runImport(killed);

    recordFigures("kill_during_import", {
      records: RECORDS,
      batch: BATCH,
      vulnerabilities_at_kill: afterKill.vulnerabilities!,
      rerun_exit: rerun.code ?? -1,
      consistent_after_rerun: JSON.stringify(afterRerun) === JSON.stringify(expected),
    });
    // Whole batches only: a batch's vulnerabilities, ranges and credits commit together or not at all.
    expect(afterKill.vulnerabilities! % BATCH).toBe(0);
    expect(afterKill.vulnerabilities).toBeLessThan(RECORDS);
    const orphans = await query<{ n: number }>(
      killed,
      `select count(*)::int as n from vulnerabilities v
       where not exists (select 1 from affected_ranges r where r.vulnerability_id = v.id)`,
    );
    const referenceOrphans = await query<{ n: number }>(
      reference,
      `select count(*)::int as n from vulnerabilities v
       where not exists (select 1 from affected_ranges r where r.vulnerability_id = v.id)`,
    );
    expect(rerun.code, rerun.output).toBe(0);
    expect(afterRerun).toEqual(expected);
    expect(orphans[0]!.n).toBe(referenceOrphans[0]!.n);
    // A third run finds every record as the re-run left it.
    expect(again.output).toContain(
      `${RECORDS} read, ${RECORDS} imported (0 new, 0 updated, ${RECORDS} unchanged)`,
    );
  });
});
