import { createHash } from "node:crypto";
import { type AffectedRange, ComponentKind } from "@pressguard/domain";
import { JSONParser } from "@streamparser/json";
import { z } from "zod";
import { type UpstreamRecord, VulnerabilityRecord } from "../../db/upstream-records.ts";

/**
 * The Wordfence Intelligence v3 production feed (issue 34, decision 035): one JSON object keyed by
 * record id, ≈ 160 MB, parsed as a stream — one record at a time, never the whole document — and
 * mapped to the bulk import's record shape (data/wordpress-vulns/README.md §1.3 says how the bundled
 * records were derived from the same feed; this mapping follows it where the feed has the field, and
 * takes the feed's own values where the bundled file had to leave them null).
 */

export const WORDFENCE_SOURCE = "wordfence-intelligence";

const RECORD_URL = "https://www.wordfence.com/threat-intel/vulnerabilities/id/";

/** The document itself cannot be read: nothing of it may be written. */
export class FeedDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeedDocumentError";
  }
}

/** One entry of the document: a record, or why the entry is not one. */
export type FeedEntry = { key: string; record: UpstreamRecord } | { key: string; reason: string };

const optionalString = z.string().nullish();

const AffectedVersions = z.object({
  from_version: z.string().trim().min(1),
  from_inclusive: z.boolean().default(true),
  to_version: z.string().trim().min(1),
  to_inclusive: z.boolean().default(true),
});

const Software = z.object({
  type: ComponentKind,
  name: optionalString,
  slug: z.string().trim().min(1),
  affected_versions: z.record(z.string(), AffectedVersions).default({}),
  patched: z.boolean().nullish(),
  patched_versions: z.array(z.string()).nullish(),
});

/** A v3 record as far as this mapping reads it; other fields are ignored. */
const FeedRecord = z.object({
  id: z.string(),
  title: z.string(),
  software: z.array(Software).min(1, "lists no software"),
  informational: z.boolean().nullish(),
  description: optionalString,
  references: z.array(z.string()).nullish(),
  cwe: z.object({ id: z.union([z.number().int(), z.string()]).nullish(), name: optionalString }).nullish(),
  cvss: z
    .object({ vector: optionalString, score: z.coerce.number().nullish(), rating: optionalString })
    .nullish(),
  cve: optionalString,
  researchers: z.array(z.string()).nullish(),
  published: optionalString,
  updated: optionalString,
  copyrights: z
    .record(
      z.string(),
      z.union([
        z.string(),
        z.object({ notice: optionalString, license: optionalString, license_url: optionalString }),
      ]),
    )
    .nullish(),
});
type FeedRecord = z.infer<typeof FeedRecord>;
type FeedSoftware = z.infer<typeof Software>;

/** "YYYY-MM-DD HH:MM:SS" (UTC, the feed's form) as ISO 8601; null when absent or unreadable. */
export function feedDate(value: string | null | undefined): string | null {
  const match = value?.trim().match(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?Z?$/);
  if (!match) return null;
  const iso = `${match[1]}T${match[2]}Z`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

/**
 * One `affected_versions` entry as a stored range (README §1.3 step 5): `* - X` is `<= X` (or
 * `< X` when X is excluded), a lower bound other than `*` is `introduced` (exclusive when the feed
 * says so), one version (`X - X`) is exactly X, and `* - *` is every version.
 */
export function rangeOf(entry: z.infer<typeof AffectedVersions>): AffectedRange {
  const from = entry.from_version;
  const to = entry.to_version;
  if (from !== "*" && from === to && entry.from_inclusive && entry.to_inclusive) {
    return { introduced: from, introduced_inclusive: true, last_affected: from, prefix: "", version: from };
  }
  const lower = from === "*" ? {} : { introduced: from, introduced_inclusive: entry.from_inclusive };
  if (to === "*") return { ...lower, prefix: "<=", version: "*" };
  if (entry.to_inclusive) return { ...lower, last_affected: to, prefix: "<=", version: to };
  return { ...lower, fixed: to, prefix: "<", version: to };
}

/** The oldest first, by dotted numbers then text (enough to pick the newest patched version). */
function versionOrder(left: string, right: string): number {
  const parts = (value: string) =>
    value.split(/[.\-+ ]/).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const a = parts(left);
  const b = parts(right);
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/**
 * The software's fixed version: the newest of `patched_versions` (updating to it fixes every branch),
 * else the excluded upper bound of its last range (README §1.3: `< X` means fixed in X).
 */
function fixedInOf(software: FeedSoftware, ranges: AffectedRange[]): string | null {
  const patched = (software.patched_versions ?? []).map((version) => version.trim()).filter(Boolean);
  if (software.patched !== false && patched.length > 0) return patched.sort(versionOrder).at(-1)!;
  const last = ranges.at(-1);
  return last?.prefix === "<" ? last.version : null;
}

/** README §1.3 step 7: the title after the " - " that follows the version part ("<= 1.2", "1.0 - 1.2"). */
export function vulnerabilityTypeOf(title: string): string | null {
  const version = String.raw`v?[\d*][\w.*+-]*`;
  const match = title.match(
    new RegExp(String.raw`(?:^|\s)(?:[<>]=?\s*)?${version}(?:\s+-\s+${version})?\s+-\s+(.+)$`),
  );
  return match?.[1]?.trim() || null;
}

/** The licence terms the record carries (decision 029): each notice with its licence and link. */
function attributionOf(copyrights: FeedRecord["copyrights"]): string | null {
  if (!copyrights) return null;
  const parts: string[] = [];
  for (const [name, value] of Object.entries(copyrights)) {
    if (name === "message" || typeof value === "string") continue;
    const text = [value.notice, value.license, value.license_url].filter((part) => part?.trim()).join(" ");
    if (text) parts.push(text);
  }
  return parts.length > 0 ? parts.join("\n\n") : null;
}

/** The content hash: the record as stored, except the source's `updated` date. */
function contentHashOf(record: VulnerabilityRecord): string {
  const { updated_at: _ignored, ...content } = record;
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

/** Why an entry is not a record, as the import says it ("path: message"). */
function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** Maps one v3 record to the import's record shape, or says why it cannot. */
export function mapWordfenceRecord(key: string, value: unknown): FeedEntry {
  const parsed = FeedRecord.safeParse(value);
  if (!parsed.success) return { key, reason: issuesOf(parsed.error) };
  const raw = parsed.data;
  if (raw.id.toLowerCase() !== key.toLowerCase()) {
    return { key, reason: `id ${raw.id} differs from its key in the document` };
  }
  const software = raw.software
    .map((item) => {
      const ranges = Object.values(item.affected_versions).map(rangeOf);
      return {
        software_type: item.type,
        slug: item.slug,
        software_name: item.name?.trim() || null,
        affected: ranges,
        fixed_in: fixedInOf(item, ranges),
      };
    })
    .sort((a, b) =>
      a.software_type === b.software_type
        ? a.slug.localeCompare(b.slug)
        : a.software_type.localeCompare(b.software_type),
    );
  const main = software[0]!;
  const vector = raw.cvss?.vector?.trim() || null;
  const cweId = raw.cwe?.id == null ? null : String(raw.cwe.id).replace(/^CWE-/i, "");
  const candidate = {
    id: raw.id,
    source: WORDFENCE_SOURCE,
    source_url: `${RECORD_URL}${raw.id.toLowerCase()}`,
    cve: raw.cve?.trim() || null,
    title: raw.title,
    description: raw.description ?? "",
    vuln_type: vulnerabilityTypeOf(raw.title),
    software_type: main.software_type,
    slug: main.slug,
    software_name: main.software_name,
    affected: main.affected,
    fixed_in: main.fixed_in,
    affected_possibly_incomplete: false,
    software,
    cvss_score: raw.cvss?.score ?? null,
    cvss_vector: vector,
    cvss_version: vector?.match(/^CVSS:(\d+\.\d+)\//)?.[1] ?? null,
    cvss_rating: raw.cvss?.rating?.trim() || null,
    cwe: cweId ? `CWE-${cweId}` : null,
    published_at: feedDate(raw.published),
    updated_at: feedDate(raw.updated),
    researchers: raw.researchers && raw.researchers.length > 0 ? raw.researchers : null,
    references: raw.references ?? [],
    attribution: attributionOf(raw.copyrights),
  };
  const record = VulnerabilityRecord.safeParse(candidate);
  if (!record.success) return { key, reason: issuesOf(record.error) };
  return { key, record: { ...record.data, sourceHash: contentHashOf(record.data) } };
}

/**
 * The entries of a v3 document, read from its bytes as they arrive: each record is parsed, mapped and
 * handed on before the next is read, and the parser keeps nothing it has handed on. A document that is
 * not JSON, not an object, or ends early throws `FeedDocumentError` — after the entries read so far,
 * which the caller must therefore not have written yet.
 */
export async function* parseWordfenceFeed(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<FeedEntry> {
  // Only the records are asked for: asking for the root too would keep every record in it.
  const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
  const notAnObject = () =>
    new FeedDocumentError("The feed's document is not a JSON object keyed by record id.");
  const ready: FeedEntry[] = [];
  let failure: Error | null = null;
  /** The document's first character that is not white space, once seen. */
  let first: string | null = null;
  parser.onValue = ({ value, key }) => {
    if (typeof key !== "string") failure ??= notAnObject();
    else ready.push(mapWordfenceRecord(key, value));
  };
  parser.onError = (error) => {
    failure ??= new FeedDocumentError(`The feed's document is not valid JSON (${error.message}).`);
  };
  for await (const chunk of chunks) {
    if (first === null) {
      const text = (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).replace(
        /^[\s\uFEFF]+/,
        "",
      );
      if (text !== "") {
        first = text[0]!;
        if (first !== "{") throw notAnObject();
      }
    }
    parser.write(chunk);
    if (failure) throw failure;
    yield* ready.splice(0);
  }
  if (first === null) throw new FeedDocumentError("The feed's document is empty.");
  if (!parser.isEnded) {
    throw new FeedDocumentError("The feed's document ended before it was complete (truncated).");
  }
  if (failure) throw failure;
  yield* ready.splice(0);
}
