import type { SqlRunner } from "../../db/client.ts";

/** Throws when the database does not answer (the health check's one query). */
export async function pingDatabase(sql: SqlRunner): Promise<void> {
  await sql.query("select 1");
}
