import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";
import { readDataVersion } from "../db/data-version.ts";

/**
 * Waits until the app serves the OSV export files of the database's current data version (decision
 * 027): a request for them starts their build once the 2 s data-version poll has seen a change.
 */
export async function osvExportReady(app: FastifyInstance, database: Database, timeoutMs = 120_000) {
  const version = Number(await readDataVersion(database.sql));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await app.inject({ method: "HEAD", url: "/api/v1/osv/modified_id.csv" });
    // The files' ETag follows their bytes (issue 38); the data version they were built at is a header.
    const built = response.headers.etag ? response.headers["x-data-version"] : undefined;
    if (response.statusCode === 200 && Number(built) >= version) return version;
    if (Date.now() > deadline)
      throw new Error(`the OSV export of data version ${version} was not served in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
