import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Database, SqlRunner } from "../../db/client.ts";
import { createAttachmentStoreQueries } from "./attachment-store-queries.ts";
import type { UploadSpool } from "./attachments.ts";

/**
 * Where attachment bytes live (decision 022): storage every instance shares, so an upload received by
 * one instance downloads from any other. `database` (the default, PGlite or PostgreSQL) keeps them in
 * report_attachment_chunks; `s3` in a bucket of an S3-compatible service.
 */
export type StorageKind = "database" | "s3";

interface AttachmentKey {
  reportId: string;
  id: string;
}

export interface AttachmentStore {
  kind: StorageKind;
  /**
   * Before the row's transaction. The S3 store marks the object pending (committed), then puts it;
   * the database store does nothing.
   */
  stage(key: AttachmentKey, file: { path: string; size: number }): Promise<void>;
  /**
   * In the row's transaction, so the bytes are kept exactly when the row is: the database store
   * writes the chunks, the S3 store clears the pending mark.
   */
  commit(key: AttachmentKey, file: { path: string; size: number }, tx: SqlRunner): Promise<void>;
  /**
   * In a transaction that found the bytes already committed under `key` by someone else (two instances
   * moving one attachment at start): keeps them as they are, clearing this stage's pending mark.
   */
  release(key: AttachmentKey, tx: SqlRunner): Promise<void>;
  /** Removes staged bytes whose row was not committed after all (a no-op for the database store). */
  remove(key: AttachmentKey): Promise<void>;
  /** The stored bytes as a stream read a piece at a time, or null when they are missing. */
  open(key: AttachmentKey): Promise<Readable | null>;
  /**
   * Removes what an instance killed between `stage` and the commit left: S3 objects marked pending
   * longer than `graceMs`. Each is claimed with SKIP LOCKED, so instances sweeping at once never
   * collide. Answers how many it removed.
   */
  sweep(graceMs: number): Promise<number>;
}

/** A database store's chunk: big enough to keep the statements few, small enough to stream. */
export const ATTACHMENT_CHUNK_BYTES = 256 * 1024;

function bufferOf(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new Error("an attachment chunk is not bytes");
}

/** The bytes in report_attachment_chunks; a download reads one chunk per query, never the whole file. */
export function createDatabaseAttachmentStore(sql: SqlRunner): AttachmentStore {
  const queries = createAttachmentStoreQueries(sql);
  return {
    kind: "database",
    async stage() {
      // Written in the row's transaction (commit), never before it.
    },
    async commit(key, file, tx) {
      let seq = 0;
      for await (const chunk of createReadStream(file.path, { highWaterMark: ATTACHMENT_CHUNK_BYTES })) {
        await queries.insertChunk(key.id, seq, chunk, tx);
        seq += 1;
      }
    },
    async release() {
      // Nothing was staged.
    },
    async remove() {
      // The chunks were written in the transaction that failed: they went with it.
    },
    async sweep() {
      return 0;
    },
    async open(key) {
      const chunks = await queries.countChunks(key.id);
      if (chunks === 0) return null;
      let seq = 0;
      return new Readable({
        // One chunk is asked for only when the previous one has been taken by the response.
        highWaterMark: 1,
        read() {
          if (seq >= chunks) {
            this.push(null);
            return;
          }
          const current = seq;
          seq += 1;
          queries
            .readChunk(key.id, current)
            .then((found) => {
              if (!found) throw new Error(`attachment ${key.id} lost its chunk ${current}`);
              this.push(bufferOf(found.data));
            })
            .catch((error: unknown) => this.destroy(error as Error));
        },
      });
    },
  };
}

export interface S3StoreOptions {
  /** Unset: AWS S3 itself. Set (MinIO, Ceph, R2, …): the service's URL. */
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  /** Unset: the SDK's own credential chain (instance role, AWS_* variables, …). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `bucket` in the path instead of the host name: what most S3-compatible services want. */
  forcePathStyle: boolean;
}

/**
 * The bytes as objects `attachments/{report id}/{id}` of a bucket on an S3-compatible service. It needs
 * s3:PutObject, s3:GetObject and s3:DeleteObject only: what a killed upload leaves is found through
 * its pending mark (attachment_pending_objects), never by listing the bucket.
 */
export function createS3AttachmentStore(
  options: S3StoreOptions,
  sql: SqlRunner,
): AttachmentStore & { close(): void } {
  const queries = createAttachmentStoreQueries(sql);
  const client = new S3Client({
    ...(options.endpoint && { endpoint: options.endpoint }),
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId &&
      options.secretAccessKey && {
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      }),
    // Checksums only where the API requires them: many S3-compatible services refuse the SDK's
    // default streaming checksum trailers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const objectKey = (key: AttachmentKey) => `attachments/${key.reportId}/${key.id}`;
  const isMissing = (error: unknown) => {
    const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
  };
  const deleteObject = (key: string) =>
    client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
  return {
    kind: "s3",
    async stage(key, file) {
      await queries.markPending(objectKey(key));
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(key),
          Body: createReadStream(file.path),
          ContentLength: file.size,
          ContentType: "application/octet-stream",
        }),
      );
    },
    async commit(key, _file, tx) {
      await queries.clearPending(objectKey(key), tx);
    },
    async release(key, tx) {
      await queries.clearPending(objectKey(key), tx);
    },
    async remove(key) {
      await deleteObject(objectKey(key));
      await queries.clearPending(objectKey(key));
    },
    async open(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }),
        );
        return object.Body instanceof Readable ? object.Body : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async sweep(graceMs) {
      return sql.transaction(async (tx) => {
        const objectKeys = await queries.claimStalePending(graceMs, tx);
        for (const stale of objectKeys) {
          await deleteObject(stale);
          await queries.clearPending(stale, tx);
        }
        return objectKeys.length;
      });
    },
    close: () => client.destroy(),
  };
}

/**
 * Moves every attachment stored elsewhere into `target` (decision 022): the files an installation
 * from before kept in ATTACHMENTS_DIR (`disk`), or the database's when S3 is configured since. Run at
 * start by every instance: each row is moved under its row lock and re-checked there, so two instances
 * starting at once move it once, and a second run finds nothing to do. The bytes are checked against
 * the row's SHA-256 before the row says they moved; a file that is missing or differs stays where it
 * is (and is counted). Files in ATTACHMENTS_DIR are left in place: the operator removes them.
 */
export async function moveAttachmentsInto(
  target: AttachmentStore,
  options: {
    database: Database;
    spool: UploadSpool;
    /** The stores a row may name besides the target, when configured. */
    sources: Partial<Record<StorageKind, AttachmentStore>>;
  },
): Promise<{ moved: number; unreadable: number }> {
  const { database, spool } = options;
  const queries = createAttachmentStoreQueries(database.sql);
  let moved = 0;
  let unreadable = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = await queries.listStoredElsewhere(target.kind, after);
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      const key = { reportId: row.report_id, id: row.id };
      const source =
        row.storage === "disk"
          ? await openLegacyFile(spool.legacyPathOf(row.report_id, row.id))
          : await options.sources[row.storage as StorageKind]?.open(key);
      if (!source) {
        unreadable += 1;
        continue;
      }
      // Copied to a spool file first: counted, hashed, and read outside any transaction.
      const copy = await spool.receive(source, Number.MAX_SAFE_INTEGER).catch(() => null);
      if (!copy) {
        unreadable += 1;
        continue;
      }
      try {
        if (copy.size !== row.size_bytes || copy.sha256 !== row.sha256) {
          unreadable += 1;
          continue;
        }
        const file = { path: copy.tempPath, size: copy.size };
        await target.stage(key, file);
        const done = await database.sql.transaction(async (tx) => {
          const storage = await queries.lockStorage(row.id, tx);
          if (storage !== row.storage) {
            // Moved by another instance meanwhile: what was staged here is the same bytes under the same key.
            if (storage === target.kind) await target.release(key, tx);
            return false;
          }
          await target.commit(key, file, tx);
          if (row.storage === "database") await queries.deleteChunks(row.id, tx);
          await queries.setStorage(row.id, target.kind, tx);
          return true;
        });
        if (done) moved += 1;
      } finally {
        await spool.discard(copy.tempPath);
      }
    }
  }
  return { moved, unreadable };
}

async function openLegacyFile(path: string): Promise<Readable | null> {
  const stream = createReadStream(path);
  return new Promise((resolve) => {
    stream.once("open", () => resolve(stream));
    stream.once("error", () => resolve(null));
  });
}
