import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  FIX_ATTACHMENT_LIMITS,
  FIX_ATTACHMENT_MESSAGES,
  isUuid,
  REPORT_ATTACHMENT_MESSAGES,
} from "@pressguard/domain";

/** Proof-of-concept files (issue 7): 20 MB each, 5 per report. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENTS_PER_REPORT = 5;

export const ATTACHMENT_MESSAGES = {
  tooMany: `A report has at most ${ATTACHMENTS_PER_REPORT} attachments.`,
  tooLarge: "An attachment must be at most 20 MB.",
  empty: "The file is empty.",
  field: "Send one file as multipart/form-data in a field named file.",
  notAllowed: "Only the researcher who reported it and staff can attach files to a report.",
  type: REPORT_ATTACHMENT_MESSAGES.type,
} as const;

/** The vendor's side: fix zips, while the report awaits a fix (issue 7). */
export const FIX_ATTACHMENTS_PER_REPORT = FIX_ATTACHMENT_LIMITS.perReport;

export const FIX_UPLOAD_MESSAGES = {
  ...FIX_ATTACHMENT_MESSAGES,
  notAllowed: "Only the vendor of the product can attach a fix.",
  state: "A fix can be attached only while the report awaits a fix.",
} as const;

/** A report or attachment id as the store writes it: a uuid in lowercase. */
const isStoredId = (value: string) => isUuid(value) && value === value.toLowerCase();

/** A file name safe to keep and to put in Content-Disposition: no path, no control characters. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).at(-1) ?? "";
  const cleaned = [...base]
    .filter((char) => char !== '"' && (char.codePointAt(0) ?? 0) > 0x1f && char !== "\u007f")
    .join("")
    .trim()
    .slice(0, 200);
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : "attachment";
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDispositionOf(filename: string): string {
  const ascii = filename.replace(/[^A-Za-z0-9._ -]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export class FileTooLargeError extends Error {}

/** Uploads in progress are spooled under this prefix, then stored (decision 022). */
const PARTIAL_UPLOAD_PREFIX = ".upload-";
/**
 * A partial upload untouched this long is left over by a process that was killed mid-upload. A live
 * upload writes as its bytes arrive, so it is never this idle; the grace keeps another instance
 * sharing the directory from losing the upload it is receiving.
 */
export const PARTIAL_UPLOAD_MAX_IDLE_MS = 10 * 60 * 1000;

/**
 * The local directory of this instance (ATTACHMENTS_DIR): an upload is streamed to a spool file
 * `dir/.upload-<uuid>`, counted and hashed on the way, then copied into the shared attachment store
 * (attachment-store.ts) in the transaction that stores its row, and removed. So a slow client holds
 * no database connection, and a killed upload leaves nothing in the shared store. Installations from
 * before decision 022 kept the attachments themselves here, under `dir/{report id}/{attachment id}`:
 * `legacyPathOf` names them for the move into the store.
 */
export function createUploadSpool(dir: string) {
  const root = resolve(dir);

  return {
    root,

    /** Where an installation from before decision 022 kept an attachment (ids are uuids, never names). */
    legacyPathOf(reportId: string, id: string) {
      if (!isStoredId(reportId) || !isStoredId(id)) throw new Error("not an attachment id");
      return join(root, reportId, id);
    },

    /** Streams `file` to a spool file; throws FileTooLargeError past `maxBytes` (and removes it). */
    async receive(file: Readable, maxBytes = ATTACHMENT_MAX_BYTES) {
      await mkdir(root, { recursive: true, mode: 0o700 });
      const tempPath = join(root, `${PARTIAL_UPLOAD_PREFIX}${randomUUID()}`);
      const hash = createHash("sha256");
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) {
            callback(new FileTooLargeError(ATTACHMENT_MESSAGES.tooLarge));
            return;
          }
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      try {
        await pipeline(file, meter, createWriteStream(tempPath, { mode: 0o600 }));
        if ((file as Readable & { truncated?: boolean }).truncated)
          throw new FileTooLargeError(ATTACHMENT_MESSAGES.tooLarge);
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      return { tempPath, size, sha256: hash.digest("hex") };
    },

    /**
     * Removes the partial uploads (`.upload-*`) left by killed processes: those untouched for
     * `maxIdleMs`, in the directory itself and in the report folders where versions before decision
     * 022 spooled them. Run at start and every `maxIdleMs`; answers how many it removed.
     */
    async sweepPartialUploads(maxIdleMs = PARTIAL_UPLOAD_MAX_IDLE_MS, now = Date.now()): Promise<number> {
      const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
      const candidates = entries
        .filter((entry) => entry.isFile() && entry.name.startsWith(PARTIAL_UPLOAD_PREFIX))
        .map((entry) => join(root, entry.name));
      for (const folder of entries) {
        if (!folder.isDirectory() || !isStoredId(folder.name)) continue;
        const names = await readdir(join(root, folder.name)).catch(() => []);
        for (const name of names)
          if (name.startsWith(PARTIAL_UPLOAD_PREFIX)) candidates.push(join(root, folder.name, name));
      }
      let removed = 0;
      for (const path of candidates) {
        const info = await stat(path).catch(() => null);
        if (!info?.isFile() || now - info.mtimeMs < maxIdleMs) continue;
        await rm(path, { force: true });
        removed += 1;
      }
      return removed;
    },

    /** Sweeps now, then every PARTIAL_UPLOAD_MAX_IDLE_MS until stopped. */
    async startSweeping(onError: (error: unknown) => void) {
      await this.sweepPartialUploads().catch(onError);
      const timer = setInterval(() => {
        this.sweepPartialUploads().catch(onError);
      }, PARTIAL_UPLOAD_MAX_IDLE_MS);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },

    /** The first `length` bytes of a received upload (fewer when it is shorter). */
    async head(tempPath: string, length: number): Promise<Buffer> {
      const handle = await open(tempPath, "r");
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    async discard(tempPath: string) {
      await rm(tempPath, { force: true });
    },
  };
}

export type UploadSpool = ReturnType<typeof createUploadSpool>;
