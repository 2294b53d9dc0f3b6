import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTIAL_UPLOAD_MAX_IDLE_MS } from "../apps/server/src/modules/reports/attachments.ts";
import { jsonHeaders, reportBody, researcherToken, withDatabase } from "./api.ts";
import { createFaultCluster, type FaultCluster } from "./cluster.ts";
import { recordFigures } from "./figures.ts";
import { type Server, startServer, stopProcess } from "./processes.ts";

/**
 * Issue 15, finding 6: the server killed (SIGKILL) while it receives an attachment. Nothing is
 * half-written: no attachment row, no bytes in the shared store (decision 022: the database's chunks);
 * the partial `.upload-*` spool file the kill leaves in the instance's ATTACHMENTS_DIR is removed by
 * the next start once idle past the grace (which keeps another instance's live upload).
 */

const PORT = Number(process.env.FAULTS_PORT ?? 3241) + 2;
const BOUNDARY = "----pressguard-fault-boundary";

let cluster: FaultCluster;
let databaseUrl: string;
let workDir: string;
let attachmentsDir: string;
let server: Server | undefined;

const serverEnv = () => ({
  DATABASE_URL: databaseUrl,
  ATTACHMENTS_DIR: attachmentsDir,
  EXPORTS_DIR: join(workDir, "exports"),
  PREVIEW_TOKEN_KEY: "fault-suite-preview-token-key-0123456789",
});

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "pressguard-faults-upload-"));
  attachmentsDir = join(workDir, "attachments");
  cluster = await createFaultCluster();
  databaseUrl = await cluster.createDatabase("pressguard_faults_upload");
  server = await startServer(PORT, serverEnv(), workDir);
});

afterAll(async () => {
  await stopProcess(server);
  await cluster?.remove();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Starts a multipart upload that sends its bytes slowly and never finishes by itself. */
function slowUpload(reportId: string, token: string) {
  const upload = request(`http://127.0.0.1:${PORT}/api/reports/${reportId}/attachments`, {
    method: "POST",
    headers: {
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      accept: "application/json",
      authorization: `Bearer ${token}`,
    },
  });
  upload.on("error", () => {});
  upload.write(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="poc.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const timer = setInterval(() => upload.write(Buffer.alloc(64 * 1024, 0x61)), 20);
  return () => {
    clearInterval(timer);
    upload.destroy();
  };
}

function partialsIn(folder: string) {
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith(".upload-")) : [];
}

/** Rows and chunks of the report's attachments, and chunks of no attachment at all. */
const storedOf = (databaseUrl: string, reportId: string) =>
  withDatabase(databaseUrl, async (client) => {
    const { rows } = await client.query<{ rows: number; chunks: number; orphans: number }>(
      `select (select count(*)::int from report_attachments where report_id = $1) as rows,
              (select count(*)::int from report_attachment_chunks c join report_attachments a on a.id = c.attachment_id
                where a.report_id = $1) as chunks,
              (select count(*)::int from report_attachment_chunks c
                where not exists (select 1 from report_attachments a where a.id = c.attachment_id)) as orphans`,
      [reportId],
    );
    return rows[0]!;
  });

describe("a kill during an upload", () => {
  it("writes nothing half-way, and the partial file is swept by the next start", async () => {
    const token = await researcherToken(server!.base, databaseUrl);
    const created = await fetch(`${server!.base}/api/reports`, {
      method: "POST",
      headers: jsonHeaders(token),
      body: JSON.stringify(reportBody(`Fault upload ${randomUUID()}`)),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // Uploads are spooled in the instance's own directory, then stored in the database.
    const folder = attachmentsDir;

    const stopUploading = slowUpload(id, token);
    let receivedBytes = 0;
    for (let polls = 0; polls < 600 && receivedBytes < 512 * 1024; polls += 1) {
      await sleep(50);
      const partial = partialsIn(folder)[0];
      receivedBytes = partial ? statSync(join(folder, partial)).size : 0;
    }
    expect(receivedBytes, "the upload never reached the server").toBeGreaterThanOrEqual(512 * 1024);
    server!.kill("SIGKILL");
    await server!.waitForExit();
    stopUploading();

    const leftByKill = partialsIn(folder);
    expect(await storedOf(databaseUrl, id)).toEqual({ rows: 0, chunks: 0, orphans: 0 });
    expect(readdirSync(folder).filter((name) => !name.startsWith(".upload-"))).toEqual([]);

    // The partial file, as the grace has passed: idle longer than any live upload is.
    const idleSince = new Date(Date.now() - PARTIAL_UPLOAD_MAX_IDLE_MS - 60_000);
    for (const name of leftByKill) utimesSync(join(folder, name), idleSince, idleSince);
    server = await startServer(PORT, serverEnv(), workDir);
    const leftAfterStart = partialsIn(folder);

    // The report takes attachments again after the restart.
    const form = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="poc.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from("proof of concept"),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const uploaded = await fetch(`${server.base}/api/reports/${id}/attachments`, {
      method: "POST",
      headers: { ...jsonHeaders(token), "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: form,
    });

    recordFigures("kill_during_upload", {
      bytes_received_before_kill: receivedBytes,
      partial_files_left_by_kill: leftByKill.length,
      partial_files_after_restart: leftAfterStart.length,
      attachment_rows_after_kill: 0,
      upload_after_restart: uploaded.status,
    });
    expect(leftByKill).toHaveLength(1);
    expect(leftAfterStart).toEqual([]);
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    expect(await storedOf(databaseUrl, id)).toEqual({ rows: 1, chunks: 1, orphans: 0 });
    // Nothing is kept on the instance's disk: the bytes are in the database.
    expect(readdirSync(folder)).toEqual([]);
  });
});
