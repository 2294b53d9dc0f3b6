/**
 * Proof-of-concept files of a report (issue 7, decision 008): how many, how large and which kinds,
 * shared by the report form (checked before uploading) and the API (which enforces them).
 */
export const REPORT_ATTACHMENT_LIMITS = {
  perReport: 5,
  maxBytes: 20 * 1024 * 1024,
} as const;

/**
 * The file kinds a proof of concept comes as: text and code, logs and captures, screenshots and
 * screen recordings, documents and archives. Anything else (executables, installers, Office files
 * with macros) is refused by its extension; files are only ever served as downloads either way.
 */
export const REPORT_ATTACHMENT_EXTENSIONS = [
  "txt",
  "md",
  "log",
  "json",
  "xml",
  "csv",
  "har",
  "diff",
  "patch",
  "php",
  "js",
  "py",
  "sh",
  "rb",
  "html",
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "mp4",
  "webm",
  "mov",
  "pdf",
  "zip",
  "gz",
  "tgz",
  "tar",
  "7z",
] as const;

export const REPORT_ATTACHMENT_MESSAGES = {
  tooMany: `A report has at most ${REPORT_ATTACHMENT_LIMITS.perReport} attachments.`,
  tooLarge: "An attachment must be at most 20 MB.",
  type: `This kind of file is not accepted. Attach ${REPORT_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`).join(", ")}.`,
} as const;

/** The lower-case extension of a file name, without the dot ("" when it has none). */
export function fileExtensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename.trim());
  return match?.[1]?.toLowerCase() ?? "";
}

export function isAcceptedAttachmentName(filename: string): boolean {
  return (REPORT_ATTACHMENT_EXTENSIONS as readonly string[]).includes(fileExtensionOf(filename));
}

/** What a report's file is: the researcher's proof of concept, or the vendor's fix (a zip). */
export const REPORT_ATTACHMENT_KINDS = ["proof", "fix"] as const;
export type ReportAttachmentKind = (typeof REPORT_ATTACHMENT_KINDS)[number];

/**
 * The vendor's fix files (issue 7): zip archives only, counted apart from the proof of concept.
 * The API checks the zip signature too, so a renamed file is refused whatever its name.
 */
export const FIX_ATTACHMENT_LIMITS = {
  perReport: 5,
  maxBytes: REPORT_ATTACHMENT_LIMITS.maxBytes,
} as const;

export const FIX_ATTACHMENT_EXTENSIONS = ["zip"] as const;

export const FIX_ATTACHMENT_MESSAGES = {
  tooMany: `A report has at most ${FIX_ATTACHMENT_LIMITS.perReport} fix files.`,
  tooLarge: REPORT_ATTACHMENT_MESSAGES.tooLarge,
  type: "Attach the fix as a .zip file.",
  notZip: "This file is not a zip archive. Attach the fix as a .zip file.",
} as const;

/** The local file header signature every zip archive with content starts with: "PK\x03\x04". */
export const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04] as const;

export function isFixArchiveName(filename: string): boolean {
  return (FIX_ATTACHMENT_EXTENSIONS as readonly string[]).includes(fileExtensionOf(filename));
}

export function startsWithZipSignature(bytes: Uint8Array): boolean {
  return ZIP_SIGNATURE.every((byte, index) => bytes[index] === byte);
}
