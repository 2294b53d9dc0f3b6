import { z } from "zod";

/**
 * CISA's Known Exploited Vulnerabilities catalog: one JSON document (~1.5 MB), read whole.
 * Format: https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities_schema.json
 * (also github.com/cisagov/kev-data). The document's `catalogVersion` and `dateReleased` say which
 * edition it is; each entry of `vulnerabilities` is one exploited CVE.
 */
export const KEV_DEFAULT_URL =
  "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json";

/** Far above the real catalog (~1.5 MB); a larger answer is not the catalog. */
const KEV_MAX_BYTES = 64 * 1024 * 1024;
/** How many skipped entries are kept as examples for the sync's log. */
const MAX_EXAMPLES = 20;

type KevRansomwareUse = "Known" | "Unknown";

/** One catalog entry, keyed by its CVE id in {@link KevCatalog.entries}. */
interface KevEntry {
  /** When CISA added the CVE to the catalog, `YYYY-MM-DD`. */
  date_added: string;
  /** The remediation deadline for US federal agencies (BOD 22-01), `YYYY-MM-DD`. */
  due_date: string;
  /** `knownRansomwareCampaignUse`: `Known`, or `Unknown` when CISA lacks confirmation. */
  ransomware: KevRansomwareUse;
}

interface KevSkipped {
  total: number;
  /** How many entries each reason skipped, e.g. `{ "cveID: not a CVE id": 2 }`. */
  byReason: Record<string, number>;
  /** The first few skipped entries: position in `vulnerabilities`, its CVE id when readable. */
  examples: { index: number; cve: string | null; reason: string }[];
}

export interface KevCatalog {
  catalogVersion: string;
  dateReleased: Date;
  /** The document's own `count`, when given (compare with `entries.size` + `skipped.total`). */
  declaredCount: number | null;
  /** Upper-case CVE id → entry. */
  entries: Map<string, KevEntry>;
  skipped: KevSkipped;
}

/** The document is not the catalog: not JSON, truncated, or without its `vulnerabilities` array. */
export class KevFormatError extends Error {
  override readonly name = "KevFormatError";
}

const CVE_ID = /^CVE-\d{4}-\d{4,19}$/;

const KevDocument = z.object({
  catalogVersion: z.string().trim().min(1),
  dateReleased: z
    .string()
    .trim()
    .refine((value) => !Number.isNaN(Date.parse(value)), "not a date-time"),
  count: z.number().int().nonnegative().optional(),
  vulnerabilities: z.array(z.unknown()),
});

const KevDate = (field: string) =>
  z
    .string({ error: `${field}: missing` })
    .trim()
    .pipe(z.iso.date({ error: `${field}: not a YYYY-MM-DD date` }));

const KevVulnerability = z.object(
  {
    cveID: z
      .string({ error: "cveID: missing" })
      .trim()
      .toUpperCase()
      .regex(CVE_ID, { error: "cveID: not a CVE id" }),
    dateAdded: KevDate("dateAdded"),
    dueDate: KevDate("dueDate"),
    // Not in the schema's `required` list: absent means CISA has no confirmation, i.e. Unknown.
    knownRansomwareCampaignUse: z
      .string({ error: "knownRansomwareCampaignUse: not a string" })
      .optional()
      .transform((value, context): KevRansomwareUse => {
        const normalised = (value ?? "Unknown").trim().toLowerCase();
        if (normalised === "known") return "Known";
        if (normalised === "unknown") return "Unknown";
        context.addIssue({
          code: "custom",
          message: "knownRansomwareCampaignUse: neither Known nor Unknown",
        });
        return z.NEVER;
      }),
  },
  { error: "entry: not an object" },
);

/** The CVE id of an entry that failed validation, for the examples (best effort). */
function cveOf(entry: unknown): string | null {
  if (typeof entry !== "object" || entry === null) return null;
  const id = (entry as { cveID?: unknown }).cveID;
  return typeof id === "string" ? id.trim().toUpperCase() || null : null;
}

/** Parses the catalog's text. Throws {@link KevFormatError} when it is not the catalog. */
export function parseKevCatalogText(text: string): KevCatalog {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new KevFormatError(
      `The KEV catalog is not valid JSON (truncated or not the catalog): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const document = KevDocument.safeParse(json);
  if (!document.success) {
    const problems = document.error.issues.map(
      (issue) => `${issue.path.join(".") || "document"}: ${issue.message}`,
    );
    throw new KevFormatError(`The document is not a KEV catalog: ${problems.join("; ")}.`);
  }

  const entries = new Map<string, KevEntry>();
  const skipped: KevSkipped = { total: 0, byReason: {}, examples: [] };
  const skip = (index: number, cve: string | null, reason: string) => {
    skipped.total += 1;
    skipped.byReason[reason] = (skipped.byReason[reason] ?? 0) + 1;
    if (skipped.examples.length < MAX_EXAMPLES) skipped.examples.push({ index, cve, reason });
  };

  for (const [index, raw] of document.data.vulnerabilities.entries()) {
    const entry = KevVulnerability.safeParse(raw);
    if (!entry.success) {
      skip(index, cveOf(raw), entry.error.issues[0]?.message ?? "invalid entry");
      continue;
    }
    const { cveID, dateAdded, dueDate, knownRansomwareCampaignUse } = entry.data;
    // The catalog lists a CVE once; a repeat is a publishing slip: the first one stands.
    if (entries.has(cveID)) {
      skip(index, cveID, "duplicate CVE id");
      continue;
    }
    entries.set(cveID, { date_added: dateAdded, due_date: dueDate, ransomware: knownRansomwareCampaignUse });
  }

  return {
    catalogVersion: document.data.catalogVersion,
    dateReleased: new Date(document.data.dateReleased),
    declaredCount: document.data.count ?? null,
    entries,
    skipped,
  };
}

type KevInput = string | Uint8Array | AsyncIterable<Uint8Array | string>;

/**
 * Parses the catalog from a string, bytes or a stream (a `Readable`, e.g. `Readable.fromWeb` of a
 * fetch body). The catalog is small, so it is read whole; more than 64 MB is refused.
 */
export async function parseKevCatalog(input: KevInput): Promise<KevCatalog> {
  if (typeof input === "string") return parseKevCatalogText(input);
  if (input instanceof Uint8Array) return parseKevCatalogText(new TextDecoder().decode(input));
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.byteLength;
    if (size > KEV_MAX_BYTES)
      throw new KevFormatError(`The KEV catalog is larger than ${KEV_MAX_BYTES / 1024 / 1024} MB.`);
    chunks.push(bytes);
  }
  return parseKevCatalogText(Buffer.concat(chunks).toString("utf8"));
}
