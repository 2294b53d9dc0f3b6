import type { SqlRunner } from "../../db/client.ts";

/**
 * The SQL of the attachment stores (attachment-store.ts): the database store's chunks, the S3 store's
 * pending marks, and the start's move of attachments from one store to another.
 */
export function createAttachmentStoreQueries(sql: SqlRunner) {
  return {
    async insertChunk(attachmentId: string, seq: number, data: Buffer, tx: SqlRunner = sql) {
      await tx.query("insert into report_attachment_chunks (attachment_id, seq, data) values ($1, $2, $3)", [
        attachmentId,
        seq,
        data,
      ]);
    },

    async countChunks(attachmentId: string): Promise<number> {
      const { rows } = await sql.query<{ chunks: number }>(
        "select count(*)::int as chunks from report_attachment_chunks where attachment_id = $1",
        [attachmentId],
      );
      return rows[0]?.chunks ?? 0;
    },

    /** One chunk, its bytes as the driver answers them (a Buffer or a Uint8Array); null when missing. */
    async readChunk(attachmentId: string, seq: number): Promise<{ data: unknown } | null> {
      const { rows } = await sql.query<{ data: unknown }>(
        "select data from report_attachment_chunks where attachment_id = $1 and seq = $2",
        [attachmentId, seq],
      );
      return rows[0] ?? null;
    },

    async deleteChunks(attachmentId: string, tx: SqlRunner = sql) {
      await tx.query("delete from report_attachment_chunks where attachment_id = $1", [attachmentId]);
    },

    /** Marks an S3 object pending before it is put: committed at once, so a killed upload is found. */
    async markPending(objectKey: string) {
      await sql.query(
        "insert into attachment_pending_objects (object_key) values ($1) on conflict do nothing",
        [objectKey],
      );
    },

    async clearPending(objectKey: string, tx: SqlRunner = sql) {
      await tx.query("delete from attachment_pending_objects where object_key = $1", [objectKey]);
    },

    /** Up to 100 objects pending longer than `graceMs`, locked for `tx` (SKIP LOCKED: sweepers never collide). */
    async claimStalePending(graceMs: number, tx: SqlRunner): Promise<string[]> {
      const { rows } = await tx.query<{ object_key: string }>(
        `select object_key from attachment_pending_objects
           where created_at < now() - make_interval(secs => $1::float8 / 1000)
           order by created_at limit 100 for update skip locked`,
        [graceMs],
      );
      return rows.map((row) => row.object_key);
    },

    /** The next 50 attachments (by id, after `after`) stored anywhere but `storage`. */
    async listStoredElsewhere(storage: string, after: string) {
      const { rows } = await sql.query<{
        id: string;
        report_id: string;
        storage: string;
        size_bytes: number;
        sha256: string;
      }>(
        `select id::text, report_id::text, storage, size_bytes, sha256 from report_attachments
       where storage <> $1 and id > $2::uuid order by id limit 50`,
        [storage, after],
      );
      return rows;
    },

    /** Where the attachment is stored now, its row locked for `tx`. */
    async lockStorage(attachmentId: string, tx: SqlRunner): Promise<string | null> {
      const { rows } = await tx.query<{ storage: string }>(
        "select storage from report_attachments where id = $1 for update",
        [attachmentId],
      );
      return rows[0]?.storage ?? null;
    },

    async setStorage(attachmentId: string, storage: string, tx: SqlRunner) {
      await tx.query("update report_attachments set storage = $2 where id = $1", [attachmentId, storage]);
    },
  };
}
