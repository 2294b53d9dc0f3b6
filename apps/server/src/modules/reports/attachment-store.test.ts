import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlRunner } from "../../db/client.ts";
import { type InjectResult, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import {
  ATTACHMENT_CHUNK_BYTES,
  createDatabaseAttachmentStore,
  createS3AttachmentStore,
} from "./attachment-store.ts";

/**
 * Issue 15, finding 9 (decision 022): attachments lived on one instance's disk (ATTACHMENTS_DIR), so
 * another instance on the same database answered 404 for them. They are now in storage every instance
 * shares: the database (default) or an S3-compatible bucket, here a real S3 server (s3rver) over HTTP.
 */

type Harness = Awaited<ReturnType<typeof createTestApp>>;
const BOUNDARY = "----pressguard-store-boundary";
const dirs: string[] = [];
const harnesses: Harness[] = [];

function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function instance(env: Record<string, string> = {}, shared?: Harness) {
  const harness = await createTestApp(env, undefined, shared?.database);
  harnesses.push(harness);
  return harness;
}

afterAll(async () => {
  // The instances sharing a database first, then the one that owns it.
  for (const harness of harnesses.reverse()) await harness.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const bytesOf = (response: InjectResult) => (response as unknown as { rawPayload: Buffer }).rawPayload;

function multipart(filename: string, content: Buffer) {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A researcher on `harness` with a report of their own, and a function uploading to it. */
async function researcherWithReport(harness: Harness) {
  const researcher = await registerUser(harness.app, { role: "researcher" });
  await harness.database.sql.query("update users set email_verified_at = now() where email = $1", [
    researcher.email,
  ]);
  const response = await researcher.caller.post("/api/reports", {
    kind: "plugin",
    product_slug: `store-plugin-${randomUUID().slice(0, 8)}`,
    product_name: "Store Plugin",
    affected_version_prefix: "<=",
    affected_version: "1.0.0",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    title: "An attachment that must reach every instance",
    description: "The uploaded file name is echoed back in the media library without escaping.",
    steps_to_reproduce: "Upload the attached file and open the media library as an administrator.",
    proof_of_concept: "See the attached file: it runs a script in the media library.",
  });
  expect(response.statusCode, response.body).toBe(201);
  const reportId = response.json<{ id: string }>().id;
  return {
    ...researcher,
    reportId,
    async upload(content: Buffer, name = "poc.zip") {
      const stored = await researcher.caller.post(
        `/api/reports/${reportId}/attachments`,
        multipart(name, content),
        {
          headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
        },
      );
      expect(stored.statusCode, stored.body).toBe(201);
      return stored.json<{ id: string }>().id;
    },
  };
}

describe("the database store (the default)", () => {
  let first: Harness;
  let second: Harness;
  beforeAll(async () => {
    first = await instance();
    // Another instance on the same database, with a local directory of its own.
    second = await instance({}, first);
  }, 120_000);

  it("serves an upload received by one instance from another, byte for byte, with the same access rules", async () => {
    const owner = await researcherWithReport(first);
    const content = randomBytes(10 * 1024 * 1024);
    const id = await owner.upload(content);
    const url = `/api/reports/${owner.reportId}/attachments/${id}`;

    const staffOnSecond = await createStaffCaller(second.app, second.database);
    const download = await staffOnSecond.get(url);
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    expect(download.headers["content-type"]).toBe("application/octet-stream");
    expect(sha256(bytesOf(download))).toBe(sha256(content));
    expect(bytesOf(download).length).toBe(content.length);

    // Kept in the database, 256 KB a chunk.
    const { rows } = await second.database.sql.query<{ storage: string; chunks: number }>(
      `select a.storage, (select count(*)::int from report_attachment_chunks c where c.attachment_id = a.id) as chunks
       from report_attachments a where a.id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ storage: "database", chunks: content.length / ATTACHMENT_CHUNK_BYTES });

    // The owner's session, made on the first instance, downloads from the second; strangers do not.
    const ownerOnSecond = await second.app.inject({
      method: "GET",
      url,
      headers: { cookie: [...owner.caller.cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    expect(ownerOnSecond.statusCode).toBe(200);
    const stranger = await researcherWithReport(second);
    expect((await stranger.caller.get(url)).statusCode).toBe(404);
    expect((await second.app.inject({ method: "GET", url })).statusCode).toBe(401);
  }, 120_000);

  it("reads a download one chunk per query, never the whole file at once", async () => {
    const owner = await researcherWithReport(first);
    const content = randomBytes(4 * ATTACHMENT_CHUNK_BYTES + 1000);
    const id = await owner.upload(content);
    let chunkReads = 0;
    const counting: SqlRunner = {
      query(text, params, options) {
        if (text.includes("select data from report_attachment_chunks")) chunkReads += 1;
        return first.database.sql.query(text, params, options);
      },
      transaction: (work) => first.database.sql.transaction(work),
    };
    const stream = await createDatabaseAttachmentStore(counting).open({ reportId: owner.reportId, id });
    expect(stream).not.toBeNull();
    const parts: Buffer[] = [];
    for await (const part of stream!) {
      parts.push(part as Buffer);
      // Never more than the chunk handed over and the one being fetched.
      expect(chunkReads).toBeLessThanOrEqual(parts.length + 1);
    }
    expect(chunkReads).toBe(5);
    expect(sha256(Buffer.concat(parts))).toBe(sha256(content));
  }, 120_000);

  it("keeps no bytes of an upload whose transaction did not commit", async () => {
    const owner = await researcherWithReport(first);
    const dir = tempDir("pressguard-store-");
    const file = join(dir, "bytes");
    writeFileSync(file, randomBytes(3 * ATTACHMENT_CHUNK_BYTES));
    const store = createDatabaseAttachmentStore(first.database.sql);
    const id = randomUUID();
    await expect(
      first.database.sql.transaction(async (tx) => {
        await tx.query(
          `insert into report_attachments (id, report_id, filename, content_type, size_bytes, sha256, storage)
           values ($1, $2, 'x.zip', 'application/zip', 1, 'x', 'database')`,
          [id, owner.reportId],
        );
        await store.commit(
          { reportId: owner.reportId, id },
          { path: file, size: 3 * ATTACHMENT_CHUNK_BYTES },
          tx,
        );
        throw new Error("the connection was lost before the commit");
      }),
    ).rejects.toThrow("the connection was lost");
    const { rows } = await first.database.sql.query<{ n: number }>(
      "select count(*)::int as n from report_attachment_chunks where attachment_id = $1",
      [id],
    );
    expect(rows[0]?.n).toBe(0);
    expect(await store.open({ reportId: owner.reportId, id })).toBeNull();
  }, 60_000);
});

describe("an upgraded installation's attachments on disk", () => {
  it("move into the store at start, once; a missing or damaged file stays where it was and answers 404", async () => {
    const dir = tempDir("pressguard-legacy-");
    const before = await instance({ ATTACHMENTS_DIR: dir });
    const owner = await researcherWithReport(before);
    // Rows and files as a version before decision 022 left them: bytes in ATTACHMENTS_DIR/{report}/{id}.
    const legacy = async (content: Buffer | null, declared: Buffer) => {
      const id = randomUUID();
      await before.database.sql.query(
        `insert into report_attachments (id, report_id, filename, content_type, size_bytes, sha256, storage)
         values ($1, $2, 'old.zip', 'application/zip', $3, $4, 'disk')`,
        [id, owner.reportId, declared.length, sha256(declared)],
      );
      if (content) {
        mkdirSync(join(dir, owner.reportId), { recursive: true });
        writeFileSync(join(dir, owner.reportId, id), content);
      }
      return id;
    };
    const kept = randomBytes(700 * 1024);
    const good = await legacy(kept, kept);
    const damaged = await legacy(Buffer.from("not what was uploaded"), randomBytes(100));
    const missing = await legacy(null, randomBytes(100));

    const upgraded = await instance({ ATTACHMENTS_DIR: dir }, before);
    const storageOf = async () =>
      Object.fromEntries(
        (
          await upgraded.database.sql.query<{ id: string; storage: string; chunks: number }>(
            `select a.id::text, a.storage,
               (select count(*)::int from report_attachment_chunks c where c.attachment_id = a.id) as chunks
             from report_attachments a where a.report_id = $1`,
            [owner.reportId],
          )
        ).rows.map((row) => [row.id, `${row.storage} ${row.chunks}`]),
      );
    expect(await storageOf()).toEqual({ [good]: "database 3", [damaged]: "disk 0", [missing]: "disk 0" });
    const staff = await createStaffCaller(upgraded.app, upgraded.database);
    const url = (id: string) => `/api/reports/${owner.reportId}/attachments/${id}`;
    const download = await staff.get(url(good));
    expect(download.statusCode).toBe(200);
    expect(sha256(bytesOf(download))).toBe(sha256(kept));
    expect((await staff.get(url(damaged))).statusCode).toBe(404);
    expect((await staff.get(url(missing))).statusCode).toBe(404);

    // Another start (or instance) finds nothing left to move, and the file is left to the operator.
    rmSync(join(dir, owner.reportId, good));
    await instance({ ATTACHMENTS_DIR: dir }, before);
    expect(await storageOf()).toEqual({ [good]: "database 3", [damaged]: "disk 0", [missing]: "disk 0" });
    expect((await staff.get(url(good))).statusCode).toBe(200);
    expect(existsSync(join(dir, owner.reportId, damaged))).toBe(true);
  }, 180_000);
});

describe("the S3 store (ATTACHMENTS_STORE=s3)", () => {
  let server: S3rver;
  let endpoint: string;
  const BUCKET = "pressguard-attachments";
  const KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  let s3: S3Client;

  beforeAll(async () => {
    server = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: tempDir("pressguard-s3rver-"),
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: KEYS,
      requestChecksumCalculation: "WHEN_REQUIRED",
    });
  });
  afterAll(async () => {
    s3?.destroy();
    await server?.close();
  });

  const s3Env = () => ({
    ATTACHMENTS_STORE: "s3",
    S3_ENDPOINT: endpoint,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: KEYS.accessKeyId,
    S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
  });

  it("stores uploads as objects another instance serves; the database's attachments move into the bucket", async () => {
    // An installation that kept its attachments in the database, then configured S3.
    const onDatabase = await instance();
    const earlier = await researcherWithReport(onDatabase);
    const earlierBytes = randomBytes(600 * 1024);
    const earlierId = await earlier.upload(earlierBytes);

    const first = await instance(s3Env(), onDatabase);
    const second = await instance(s3Env(), onDatabase);
    const { rows: moved } = await first.database.sql.query<{ storage: string; chunks: number }>(
      `select storage, (select count(*)::int from report_attachment_chunks where attachment_id = $1) as chunks
       from report_attachments where id = $1`,
      [earlierId],
    );
    expect(moved[0]).toEqual({ storage: "s3", chunks: 0 });

    const owner = await researcherWithReport(first);
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const id = await owner.upload(content);
    const object = await s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: `attachments/${owner.reportId}/${id}` }),
    );
    expect(sha256(Buffer.from(await object.Body!.transformToByteArray()))).toBe(sha256(content));

    const staff = await createStaffCaller(second.app, second.database);
    const download = await staff.get(`/api/reports/${owner.reportId}/attachments/${id}`);
    expect(download.statusCode).toBe(200);
    expect(sha256(bytesOf(download))).toBe(sha256(content));
    const earlierDownload = await staff.get(`/api/reports/${earlier.reportId}/attachments/${earlierId}`);
    expect(sha256(bytesOf(earlierDownload))).toBe(sha256(earlierBytes));
    const stranger = await researcherWithReport(second);
    expect((await stranger.caller.get(`/api/reports/${owner.reportId}/attachments/${id}`)).statusCode).toBe(
      404,
    );
  }, 180_000);

  it("sweeps an object whose upload never committed, once its grace has passed, and keeps committed ones", async () => {
    const harness = await instance(s3Env());
    const owner = await researcherWithReport(harness);
    const keptBytes = randomBytes(1000);
    const keptId = await owner.upload(keptBytes);
    const store = createS3AttachmentStore(
      { endpoint, bucket: BUCKET, region: "us-east-1", forcePathStyle: true, ...KEYS },
      harness.database.sql,
    );
    try {
      // An instance killed between the put and the commit: the object and its pending mark, no row.
      const dir = tempDir("pressguard-orphan-");
      writeFileSync(join(dir, "bytes"), "orphaned bytes");
      const orphan = { reportId: owner.reportId, id: randomUUID() };
      await store.stage(orphan, { path: join(dir, "bytes"), size: 14 });
      expect(await store.open(orphan)).not.toBeNull();
      // Within the grace nothing goes: the upload may be about to commit.
      expect(await store.sweep(60_000)).toBe(0);
      expect(await store.open(orphan)).not.toBeNull();
      await harness.database.sql.query(
        "update attachment_pending_objects set created_at = now() - interval '11 minutes'",
      );
      expect(await store.sweep(10 * 60_000)).toBe(1);
      expect(await store.open(orphan)).toBeNull();
      expect(await store.sweep(0)).toBe(0);
      const kept = await store.open({ reportId: owner.reportId, id: keptId });
      expect(sha256(Buffer.concat(await kept!.toArray()))).toBe(sha256(keptBytes));
    } finally {
      store.close();
    }
  }, 120_000);
});
