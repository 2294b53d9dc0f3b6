import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES, contentDispositionOf } from "./attachments.ts";

/** The HTTP side of a report's files, shared by routes.ts and pin-routes.ts: uploads and downloads. */

/**
 * The options of @fastify/multipart for a report plugin's uploads: one file, nothing else. One byte
 * over the limit is enough to refuse; the store counts the bytes itself too.
 */
export const UPLOAD_OPTIONS = {
  limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 0, parts: 1 },
};

/** The download's answer as the OpenAPI document states it (the errors stay JSON). */
export const DOWNLOAD_RESPONSE = {
  200: {
    description: "The file's bytes, as an attachment (Content-Disposition) of type application/octet-stream.",
    content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
  },
};

/** A stored attachment as a download: never rendered by the browser, never sniffed. */
export function sendDownload(
  reply: FastifyReply,
  file: { filename: string; size: number; stream: NodeJS.ReadableStream },
) {
  return reply
    .header("content-type", "application/octet-stream")
    .header("content-disposition", contentDispositionOf(file.filename))
    .header("content-length", String(file.size))
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "private, no-store")
    .header("content-security-policy", "default-src 'none'; sandbox")
    .send(file.stream);
}

function multipartError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE")
    return new AppError("payload_too_large", { message: ATTACHMENT_MESSAGES.tooLarge });
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
    return new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.field] } });
  return new AppError("bad_request", { message: "The upload could not be read as multipart/form-data." });
}

/** The one file of a multipart upload (field `file`); 415/422/413 for anything else. */
export async function filePartOf(request: FastifyRequest) {
  if (!request.isMultipart())
    throw new AppError("unsupported_media_type", { message: ATTACHMENT_MESSAGES.field });
  const part = await request.file().catch((error: unknown) => {
    throw multipartError(error);
  });
  if (part?.fieldname !== "file")
    throw new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.field] } });
  return { filename: part.filename, mimetype: part.mimetype, file: part.file };
}

/** Errors of the store while it streams a part (a cut connection, a part over the limit). */
export function uploadError(error: unknown): never {
  throw error instanceof AppError ? error : multipartError(error);
}
