import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";
import { DirectoryLockedError } from "./directory-lock.ts";
import { openConfiguredDatabase, openDatabaseForCommand } from "./embedded-database.ts";

const quiet = { info() {}, warn() {}, error() {} };
const directory = mkdtempSync(join(tmpdir(), "pressguard-embedded-database-"));
// Reachable by the account the embedded PostgreSQL runs as when the tests run as root.
chmodSync(directory, 0o755);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("the embedded database (decision 037)", () => {
  it("copies an earlier install's PGlite data in on its first start, once, and keeps the old directory", async () => {
    const legacyPgliteDir = join(directory, "pglite");
    const embeddedDir = join(directory, "postgres");
    const legacy = await openDatabase({ pgliteDir: legacyPgliteDir });
    await legacy.migrate();
    await legacy.sql.query(
      "insert into users (email, name, password_hash) values ('kept@example.com', 'Kept', 'x')",
    );
    await legacy.close();

    const progress: [number, number][] = [];
    const database = await openConfiguredDatabase({ embeddedDir, legacyPgliteDir }, quiet, (done, total) =>
      progress.push([done, total]),
    );
    try {
      expect(database.kind).toBe("postgres");
      await database.migrate();
      const { rows } = await database.sql.query<{ email: string }>("select email from users");
      expect(rows).toEqual([{ email: "kept@example.com" }]);
      // The preparing page's figures: tables copied, up to all of them.
      const [done, total] = progress.at(-1) ?? [0, 0];
      expect(total).toBeGreaterThan(30);
      expect(done).toBe(total);
      // One process per data directory.
      await expect(openConfiguredDatabase({ embeddedDir }, quiet)).rejects.toThrow(DirectoryLockedError);
    } finally {
      await database.close();
    }
    expect(existsSync(legacyPgliteDir)).toBe(false);
    expect(existsSync(`${legacyPgliteDir}.copied-to-postgres`)).toBe(true);
    expect(existsSync(join(embeddedDir, "postmaster.pid"))).toBe(false);

    // The next start opens the cluster as it is: nothing is copied twice.
    const again = await openConfiguredDatabase({ embeddedDir, legacyPgliteDir }, quiet);
    try {
      const { rows } = await again.sql.query<{ n: number }>("select count(*)::int as n from users");
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  // `npm run user:create` (or db:import, data:sync) refused to run while `npm start` held the data
  // directory: one had to stop the product to create a staff account.
  it("lets a command-line tool use the server a running process started, and leaves it running", async () => {
    const embeddedDir = join(directory, "shared");
    const server = await openConfiguredDatabase({ embeddedDir }, quiet);
    try {
      await server.migrate();
      await server.sql.query(
        "insert into users (email, name, password_hash) values ('server@example.com', 'Server', 'x')",
      );
      const tool = await openDatabaseForCommand({ embeddedDir }, quiet);
      await tool.migrate();
      await tool.sql.query(
        "insert into users (email, name, password_hash) values ('tool@example.com', 'Tool', 'x')",
      );
      await tool.close();
      // The server's cluster still runs, with the tool's row; a second server is still refused.
      const { rows } = await server.sql.query<{ email: string }>("select email from users order by email");
      expect(rows).toEqual([{ email: "server@example.com" }, { email: "tool@example.com" }]);
      await expect(openConfiguredDatabase({ embeddedDir }, quiet)).rejects.toThrow(DirectoryLockedError);
    } finally {
      await server.close();
    }
    // With no server running, the tool starts and stops one of its own, as before.
    const alone = await openDatabaseForCommand({ embeddedDir }, quiet);
    try {
      const { rows } = await alone.sql.query<{ n: number }>("select count(*)::int as n from users");
      expect(rows).toEqual([{ n: 2 }]);
    } finally {
      await alone.close();
    }
    expect(existsSync(join(embeddedDir, "postmaster.pid"))).toBe(false);
  }, 120_000);
});
