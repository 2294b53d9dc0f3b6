import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { AffectedRange, ComponentKind, parseCvssVector, UUID_PATTERN } from "@pressguard/domain";
import { z } from "zod";

/**
 * The seed's record formats (data/wordpress-vulns/README.md §1.4 vulnerabilities, §2.3 plugins) and a
 * streaming JSON Lines reader. Fields the README says "start as null" may also be missing.
 */

const text = z.string();
const optionalText = z.string().nullish();
const timestamp = z.iso.datetime({ offset: true }).nullish();

const SoftwareItem = z.object({
  software_type: ComponentKind,
  slug: z.string().trim().min(1).max(200),
  software_name: optionalText,
  affected: z.array(AffectedRange).min(1),
  fixed_in: optionalText,
});

export const VulnerabilityRecord = z
  .object({
    id: z
      .string()
      .regex(UUID_PATTERN, "must be a UUID")
      .transform((id) => id.toLowerCase()),
    source: z.string().min(1),
    source_url: optionalText,
    cve: z
      .string()
      .regex(/^CVE-\d{4}-\d{4,}$/, "must look like CVE-2024-12345")
      .nullish(),
    title: z.string().trim().min(1),
    description: text.default(""),
    vuln_type: optionalText,
    software_type: ComponentKind,
    slug: z.string().trim().min(1).max(200),
    software_name: optionalText,
    affected: z.array(AffectedRange).min(1),
    fixed_in: optionalText,
    affected_possibly_incomplete: z.boolean().default(false),
    software: z.array(SoftwareItem).min(1),
    cvss_score: z.number().min(0).max(10).nullish(),
    cvss_vector: optionalText,
    cvss_version: optionalText,
    cvss_rating: z.enum(["None", "Low", "Medium", "High", "Critical"]).nullish(),
    cwe: optionalText,
    published_at: timestamp,
    updated_at: timestamp,
    researchers: z.array(z.string()).nullish(),
    references: z.array(z.string()).default([]),
    attribution: optionalText,
  })
  .superRefine((record, context) => {
    if (record.cvss_vector) {
      const parsed = parseCvssVector(record.cvss_vector);
      if (!parsed.ok) context.addIssue({ code: "custom", path: ["cvss_vector"], message: parsed.error });
    }
    const keys = new Set<string>();
    for (const [index, item] of record.software.entries()) {
      const key = `${item.software_type}/${item.slug}`;
      if (keys.has(key)) {
        context.addIssue({ code: "custom", path: ["software", index], message: `${key} is listed twice` });
      }
      keys.add(key);
    }
  });
export type VulnerabilityRecord = z.infer<typeof VulnerabilityRecord>;

const count = z.number().int().min(0).nullish();

export const PluginRecord = z.object({
  slug: z.string().trim().min(1).max(200),
  name: z.string().trim().min(1),
  version: optionalText,
  author: optionalText,
  author_profile: optionalText,
  contributors: z.array(z.string()).default([]),
  requires: optionalText,
  tested: optionalText,
  requires_php: optionalText,
  rating: z.number().int().min(0).max(100).nullish(),
  num_ratings: count,
  active_installs: count,
  downloaded: count,
  last_updated: optionalText,
  added: z.iso.date().nullish(),
  homepage: optionalText,
  short_description: optionalText,
  tags: z.array(z.string()).default([]),
  business_model: optionalText,
  versions: z.array(z.string()).default([]),
  has_trunk_version: z.boolean().nullish(),
  download_link: optionalText,
  wordpress_org_url: optionalText,
});
export type PluginRecord = z.infer<typeof PluginRecord>;

export type RecordKind = "vulns" | "plugins";

/** Which file a parsed JSON line comes from: vulnerability records carry `software[]`, plugins do not. */
export function detectRecordKind(value: unknown): RecordKind | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  if ("software" in value && "id" in value) return "vulns";
  if ("slug" in value && "name" in value && !("software" in value)) return "plugins";
  return null;
}

/** One line of a JSON Lines input, numbered from 1 (blank lines are skipped but still counted). */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Lines of a file (or an in-memory list of lines), numbered; the caller decides what is a record. */
export type ImportSource = string | AsyncIterable<string> | Iterable<string>;

const GZIP_MAGIC = [0x1f, 0x8b];

/** Whether a file is gzip-compressed, by its first two bytes. */
async function isGzipFile(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1];
  } finally {
    await handle.close();
  }
}

/**
 * The non-blank lines of a path (plain or gzip, detected by magic bytes) or of an iterable of lines.
 * A file that cannot be opened rejects here, before anything is imported.
 */
export async function readLines(source: ImportSource): Promise<AsyncIterable<NumberedLine>> {
  const lines = typeof source === "string" ? await openLines(source) : source;
  return (async function* () {
    let line = 0;
    for await (const raw of lines) {
      line++;
      const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (text.trim() === "") continue;
      yield { line, text };
    }
  })();
}

async function openLines(path: string): Promise<AsyncIterable<string>> {
  // Opening the file here makes a missing or unreadable file fail before anything is imported.
  const gzip = await isGzipFile(path);
  // The stream starts when iteration does: a readline interface emits lines as soon as it exists,
  // and lines emitted before anyone iterates are lost.
  return (async function* () {
    const file = createReadStream(path);
    const input = gzip ? file.pipe(createGunzip()) : file;
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    // readline does not forward stream errors (a truncated gzip, a read error): close it so that the
    // iteration ends, and rethrow the error once it has.
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
      lines.close();
    };
    file.on("error", fail);
    input.on("error", fail);
    try {
      for await (const line of lines) {
        if (failure) break;
        yield line;
      }
    } finally {
      lines.close();
      file.destroy();
    }
    if (failure) throw failure;
  })();
}

/** Why a JSON line is not a record: the first few schema issues, each as "path: message". */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - issues.length;
  return issues.join("; ") + (more > 0 ? ` (and ${more} more)` : "");
}

/** Parses one line as JSON; the reason on failure reads like "invalid JSON: Unexpected token …". */
export function parseJsonLine(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `invalid JSON: ${(error as Error).message}` };
  }
}
