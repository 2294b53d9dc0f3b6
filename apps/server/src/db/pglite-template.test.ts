import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";
import { pgliteVersion, templatePath } from "./pglite-template.ts";

describe("the PGlite template a new data directory starts from", () => {
  const root = mkdtempSync(join(tmpdir(), "pressguard-template-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("exists for the installed PGlite release (run `npm run db:template` after upgrading PGlite)", () => {
    expect(existsSync(templatePath()), `${templatePath()} for PGlite ${pgliteVersion()}`).toBe(true);
  });

  it("is what new directories are made from: one cluster identity, migrated, written and reopened", {
    timeout: 120_000,
  }, async () => {
    const identities: string[] = [];
    for (const name of ["a", "b"]) {
      const database = await openDatabase({ pgliteDir: join(root, name) });
      try {
        await database.migrate();
        await database.sql.query("insert into app_state (key, value) values ('probe', '\"kept\"')");
        const { rows } = await database.sql.query<{ id: string }>(
          "select system_identifier::text as id from pg_control_system()",
        );
        identities.push(rows[0]!.id);
      } finally {
        await database.close();
      }
    }
    // initdb draws a new system identifier each time: two directories sharing one were both loaded
    // from the snapshot.
    expect(identities[0]).toBe(identities[1]);

    const reopened = await openDatabase({ pgliteDir: join(root, "a") });
    try {
      const { rows } = await reopened.sql.query<{ value: unknown }>(
        "select value from app_state where key = 'probe'",
      );
      expect(rows[0]?.value).toBe("kept");
    } finally {
      await reopened.close();
    }
  });
});
