import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import {
  isAcceptedAttachmentName,
  isFixArchiveName,
  type ReportActor,
  type ReportAttachment,
  type ReportAttachmentKind,
  startsWithZipSignature,
  transitionOf,
  ZIP_SIGNATURE,
} from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { RequestAuth } from "../../http/access.ts";
import type { IdempotentAttempt } from "../../http/idempotency.ts";
import { createAttachmentQueries } from "./attachment-queries.ts";
import type { AttachmentStore, StorageKind } from "./attachment-store.ts";
import {
  ATTACHMENT_MESSAGES,
  ATTACHMENTS_PER_REPORT,
  cleanFilename,
  FIX_ATTACHMENTS_PER_REPORT,
  FIX_UPLOAD_MESSAGES,
  FileTooLargeError,
  type UploadSpool,
} from "./attachments.ts";
import { REPORT_NOT_FOUND, type ReportContext, viewerOf } from "./report-context.ts";
import type { ReportRow } from "./report-queries.ts";
import { attachmentOf } from "./report-views.ts";

/** Who attaches a fix zip, checked before its bytes are read. */
export interface FixUploader {
  reportId: string;
  /** The signed-in vendor; null for a link token or the PIN contact. */
  uploaderId: number | null;
  actor: "vendor" | "pin_contact";
}

export interface AttachmentServiceOptions {
  /** Where uploads are received before they are stored (ATTACHMENTS_DIR, local to this instance). */
  uploads: UploadSpool;
  /** Where attachment bytes are stored: shared by every instance (decision 022). */
  attachments: AttachmentStore;
  /** Every store a stored row may name (the configured one, and the database's when S3 is configured). */
  attachmentStores?: Partial<Record<StorageKind, AttachmentStore>>;
}

/** A fix is attached only while the domain lets `actor` submit one (awaiting_fix): else 409. */
function requireAwaitingFix(row: ReportRow, actor: ReportActor) {
  if (!transitionOf(row.status, "submit_fix", { actor }).ok)
    throw new AppError("conflict", { message: FIX_UPLOAD_MESSAGES.state });
}

/** A report's files: the proof of concept, the vendor's fix zip, their downloads. */
export function createAttachmentService(
  { database, previewTokens, requireReport, requireReader, requirePinContact, vendorSideOf }: ReportContext,
  options: AttachmentServiceOptions,
) {
  const attachmentQueries = createAttachmentQueries(database.sql);

  /**
   * Streams an upload to the store and records it as a `rule.kind` file of report `id`, at most
   * `rule.perReport` of that kind. Counted under the report's row lock, so two uploads at once never
   * make one too many; `accept` may refuse the received bytes (422), `whileLocked` the report's state.
   */
  async function storeAttachment(
    id: string,
    upload: { filename: string; mimetype: string; file: Readable },
    uploaderId: number | null,
    rule: {
      kind: ReportAttachmentKind;
      perReport: number;
      tooMany: string;
      accept?: (tempPath: string) => Promise<string | null>;
      whileLocked?: (row: ReportRow) => void;
    },
    idempotency: IdempotentAttempt | null,
  ): Promise<ReportAttachment> {
    if ((await attachmentQueries.countAttachments(id, rule.kind)) >= rule.perReport) {
      upload.file.resume();
      throw new AppError("conflict", { message: rule.tooMany });
    }
    const received = await options.uploads.receive(upload.file).catch((error: unknown) => {
      if (error instanceof FileTooLargeError)
        throw new AppError("payload_too_large", { message: ATTACHMENT_MESSAGES.tooLarge });
      throw error;
    });
    const key = { reportId: id, id: randomUUID() };
    const file = { path: received.tempPath, size: received.size };
    let staged = false;
    try {
      if (received.size === 0)
        throw new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.empty] } });
      const refusal = rule.accept ? await rule.accept(received.tempPath) : null;
      if (refusal) throw new AppError("validation", { fieldErrors: { file: [refusal] } });
      // S3 takes the bytes before the transaction (the report's lock is not held during the put).
      staged = true;
      await options.attachments.stage(key, file);
      const stored = await database.sql.transaction(async (tx) => {
        rule.whileLocked?.(await requireReport(id, tx, true));
        if ((await attachmentQueries.countAttachments(id, rule.kind, tx)) >= rule.perReport)
          throw new AppError("conflict", { message: rule.tooMany });
        const row = await attachmentQueries.insertAttachment(
          {
            id: key.id,
            reportId: id,
            kind: rule.kind,
            filename: cleanFilename(upload.filename),
            contentType: upload.mimetype.slice(0, 200) || "application/octet-stream",
            sizeBytes: received.size,
            sha256: received.sha256,
            uploadedByUserId: uploaderId,
            storage: options.attachments.kind,
          },
          tx,
        );
        // The database store writes the bytes in this transaction: they commit with the row or not at all.
        await options.attachments.commit(key, file, tx);
        // A retry after a lost answer gets this one back and stores nothing twice.
        await idempotency?.record(tx, 201, attachmentOf(row));
        return row;
      });
      return attachmentOf(stored);
    } catch (error) {
      // Nothing half-written: bytes an S3 store took while the row then failed to commit (the
      // database went away) go with the row that was not stored.
      if (staged) await options.attachments.remove(key).catch(() => {});
      throw error;
    } finally {
      await options.uploads.discard(received.tempPath);
    }
  }

  return {
    /**
     * POST /reports/{id}/attachments: a proof-of-concept file from the report's researcher or staff
     * (ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_REPORT). Counted under the report's row lock, so two
     * uploads at once never make a sixth.
     */
    async addAttachment(
      auth: RequestAuth | null,
      id: string,
      upload: { filename: string; mimetype: string; file: Readable },
      uploadToken?: string,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportAttachment> {
      const row = await requireReport(id);
      const claims = previewTokens.verify(uploadToken);
      const byToken = claims?.audience === "uploader" && claims.reportId === row.id;
      const viewer = auth ? viewerOf(auth, row) : null;
      if (!viewer && !byToken) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
      if (viewer === "vendor") throw new AppError("forbidden", { message: ATTACHMENT_MESSAGES.notAllowed });
      if (!isAcceptedAttachmentName(upload.filename)) {
        upload.file.resume();
        throw new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.type] } });
      }
      const uploaderId = viewer && auth ? auth.user.id : row.submitted_by_user_id;
      return storeAttachment(
        id,
        upload,
        uploaderId,
        { kind: "proof", perReport: ATTACHMENTS_PER_REPORT, tooMany: ATTACHMENT_MESSAGES.tooMany },
        idempotency,
      );
    },

    /**
     * Before reading a fix zip (POST /reports/{id}/fix-attachments): the owning vendor, signed in or
     * holding its e-mailed link's token, while the report awaits a fix. Staff and the researcher may
     * read the report but not attach a fix (403); anyone else gets 404, a report in another state 409.
     */
    async requireFixUploader(auth: RequestAuth | null, id: string, token?: string): Promise<FixUploader> {
      if (!auth && token === undefined) throw new AppError("unauthenticated");
      const row = await requireReport(id);
      const { userId } = vendorSideOf(auth, row, token);
      requireAwaitingFix(row, "vendor");
      return { reportId: row.id, uploaderId: userId, actor: "vendor" };
    },

    /** The same for the holder of the PIN credential (POST /report-previews/{id}/fix-attachments). */
    async requirePinFixUploader(id: string, credential: string | undefined): Promise<FixUploader> {
      const row = await requirePinContact(id, credential);
      requireAwaitingFix(row, "pin_contact");
      return { reportId: row.id, uploaderId: null, actor: "pin_contact" };
    },

    /**
     * A fix zip (issue 7): a .zip name and the zip signature, 20 MB, FIX_ATTACHMENTS_PER_REPORT per
     * report, stored like the proof of concept; the state is checked again under the report's lock.
     */
    async addFixAttachment(
      uploader: FixUploader,
      upload: { filename: string; mimetype: string; file: Readable },
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportAttachment> {
      if (!isFixArchiveName(upload.filename)) {
        upload.file.resume();
        throw new AppError("validation", { fieldErrors: { file: [FIX_UPLOAD_MESSAGES.type] } });
      }
      return storeAttachment(
        uploader.reportId,
        upload,
        uploader.uploaderId,
        {
          kind: "fix",
          perReport: FIX_ATTACHMENTS_PER_REPORT,
          tooMany: FIX_UPLOAD_MESSAGES.tooMany,
          accept: async (tempPath) =>
            startsWithZipSignature(await options.uploads.head(tempPath, ZIP_SIGNATURE.length))
              ? null
              : FIX_UPLOAD_MESSAGES.notZip,
          whileLocked: (row) => requireAwaitingFix(row, uploader.actor),
        },
        idempotency,
      );
    },

    /**
     * GET /reports/{id}/attachments/{attachmentId} (and the PIN preview's): the bytes, to whoever may
     * read the report; the route serves them as a download, never inline.
     */
    async openAttachment(
      auth: RequestAuth | null,
      id: string,
      attachmentId: string,
      access: { token?: string | undefined } | { pinCredential: string | undefined },
    ) {
      if ("pinCredential" in access) await requirePinContact(id, access.pinCredential);
      else await requireReader(auth, id, access.token);
      const found = await attachmentQueries.findAttachment(id, attachmentId.toLowerCase());
      // A row still `disk` is one the start could not move (its file was missing or damaged): as before, 404.
      const store =
        found?.storage === options.attachments.kind
          ? options.attachments
          : found && found.storage !== "disk"
            ? options.attachmentStores?.[found.storage]
            : undefined;
      const stream = found && store ? await store.open({ reportId: id, id: found.id }) : null;
      if (!found || !stream) throw new AppError("not_found", { message: "Attachment not found." });
      return { filename: found.filename, size: found.size_bytes, stream };
    },
  };
}
