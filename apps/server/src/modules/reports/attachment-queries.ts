import type { ReportAttachmentKind } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import type { StorageKind } from "./attachment-store.ts";

export interface AttachmentRow {
  id: string;
  kind: ReportAttachmentKind;
  filename: string;
  content_type: string;
  size_bytes: number;
  created_at: Date | string;
}

export interface NewAttachment {
  id: string;
  reportId: string;
  kind: ReportAttachmentKind;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  uploadedByUserId: number | null;
  storage: StorageKind;
}

/** The rows of a report's attachments (their bytes are the attachment store's). */
export function createAttachmentQueries(sql: SqlRunner) {
  return {
    async countAttachments(
      reportId: string,
      kind: ReportAttachmentKind,
      tx: SqlRunner = sql,
    ): Promise<number> {
      const { rows } = await tx.query<{ count: number }>(
        "select count(*)::int as count from report_attachments where report_id = $1 and kind = $2",
        [reportId, kind],
      );
      return rows[0]?.count ?? 0;
    },

    async insertAttachment(attachment: NewAttachment, tx: SqlRunner = sql): Promise<AttachmentRow> {
      const { rows } = await tx.query<AttachmentRow>(
        `insert into report_attachments (id, report_id, kind, filename, content_type, size_bytes, sha256, uploaded_by_user_id, storage)
           values ($8, $1, $2, $3, $4, $5, $6, $7, $9) returning id::text, kind, filename, content_type, size_bytes, created_at`,
        [
          attachment.reportId,
          attachment.kind,
          attachment.filename,
          attachment.contentType,
          attachment.sizeBytes,
          attachment.sha256,
          attachment.uploadedByUserId,
          attachment.id,
          attachment.storage,
        ],
      );
      return rows[0]!;
    },

    async listAttachments(reportId: string, tx: SqlRunner = sql): Promise<AttachmentRow[]> {
      const { rows } = await tx.query<AttachmentRow>(
        `select id::text, kind, filename, content_type, size_bytes, created_at from report_attachments
       where report_id = $1 order by created_at, id`,
        [reportId],
      );
      return rows;
    },

    /** One attachment of the report, with the store holding its bytes (`disk`: one the start could not move). */
    async findAttachment(
      reportId: string,
      attachmentId: string,
    ): Promise<(AttachmentRow & { storage: StorageKind | "disk" }) | null> {
      const { rows } = await sql.query<AttachmentRow & { storage: StorageKind | "disk" }>(
        `select id::text, kind, filename, content_type, size_bytes, created_at, storage from report_attachments
         where report_id = $1 and id::text = $2`,
        [reportId, attachmentId],
      );
      return rows[0] ?? null;
    },
  };
}
