import { createInterface } from "node:readline";
import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { z } from "zod";

/**
 * FIRST's EPSS daily scores (https://www.first.org/epss/data_stats), served by Empirical Security:
 * `-current` redirects to the dated file (`epss_scores-YYYY-MM-DD.csv.gz`); the older
 * epss.cyentia.com host redirects here. The file (250,000–400,000 rows, ~2.5 MB gzipped):
 *
 *   #model_version:v2025.03.14,score_date:2025-03-15T00:00:00+0000
 *   cve,epss,percentile
 *   CVE-1999-0001,0.01025,0.77197
 *
 * It is read as a stream, line by line (readline: three unquoted columns need no CSV parser), so
 * memory stays flat whatever its size.
 */
export const EPSS_DEFAULT_URL = "https://epss.empiricalsecurity.com/epss_scores-current.csv.gz";

/** How many skipped rows are kept as examples for the sync's log. */
const MAX_EXAMPLES = 20;
const HEADER = "cve,epss,percentile";
/** A decimal as the feed writes it (`0.01025`); a sign and scientific notation (`1e-05`) tolerated. */
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export interface EpssScore {
  /** Upper-case CVE id. */
  cve: string;
  /** The probability of exploitation activity in the next 30 days, 0…1. */
  score: number;
  /** The share of scored CVEs with a lower or equal score, 0…1. */
  percentile: number;
}

interface EpssSkipped {
  total: number;
  /** How many rows each reason skipped, e.g. `{ "epss: not a number": 1 }`. */
  byReason: Record<string, number>;
  /** The first few skipped rows, by line number (the comment line is line 1). */
  examples: { line: number; reason: string }[];
}

export interface EpssScores {
  /** `model_version` of the comment line (`v2025.03.14`), null when absent. */
  modelVersion: string | null;
  /** The scores' day, `YYYY-MM-DD` (UTC), from `score_date`. */
  scoreDate: string;
  /** `score_date` itself: when the model scored. */
  scoredAt: Date;
  /**
   * The rows, in file order, one pass only. Throws {@link EpssFormatError} if the file turns out
   * truncated (a gzip stream cut short). Leaving the loop early closes the input. FIRST's files
   * have one row per CVE; that is not checked here (it would hold every id in memory).
   */
  scores: AsyncIterable<EpssScore>;
  /** Filled while `scores` is read: complete once it is exhausted. */
  readonly stats: { rows: number; skipped: EpssSkipped };
  /** Closes the input without reading the rest (e.g. when the score date is already known). */
  close(): void;
}

/** Not an EPSS scores file, or a damaged one. */
export class EpssFormatError extends Error {
  override readonly name = "EpssFormatError";
}

const Metadata = z.object({
  model_version: z.string().min(1).optional(),
  score_date: z
    .string({ error: "score_date is missing" })
    .regex(/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/, "score_date is not a date-time")
    .transform((value) => {
      let iso = value.replace(" ", "T");
      // `+0000` (the feed's older spelling) is not ISO 8601's `+00:00`, which Date.parse needs;
      // a time without a zone is UTC, as the feed's are (Date.parse would read it as local time).
      if (/[+-]\d{4}$/.test(iso)) iso = `${iso.slice(0, -2)}:${iso.slice(-2)}`;
      else if (iso.includes("T") && !/(?:Z|[+-]\d{2}:\d{2})$/.test(iso)) iso += "Z";
      return new Date(iso);
    })
    .refine((date) => !Number.isNaN(date.getTime()), "score_date is not a date-time"),
});

const Score = z.object({
  cve: z.string().regex(/^CVE-\d{4}-\d{4,19}$/, "cve: not a CVE id"),
  score: z.number({ error: "epss: not a number" }).min(0, "epss: below 0").max(1, "epss: above 1"),
  percentile: z
    .number({ error: "percentile: not a number" })
    .min(0, "percentile: below 0")
    .max(1, "percentile: above 1"),
});

function decimal(text: string): number {
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/** `#model_version:v2025.03.14,score_date:2025-03-15T00:00:00+0000` → its fields. */
function parseCommentLine(line: string) {
  const fields = Object.fromEntries(
    line
      .slice(1)
      .split(",")
      .map((pair) => {
        const colon = pair.indexOf(":");
        return colon < 0 ? [pair.trim(), ""] : [pair.slice(0, colon).trim(), pair.slice(colon + 1).trim()];
      }),
  );
  const metadata = Metadata.safeParse(fields);
  if (!metadata.success)
    throw new EpssFormatError(
      `The EPSS file's first line has no usable score date (${metadata.error.issues[0]?.message}): ${JSON.stringify(line.slice(0, 200))}.`,
    );
  return metadata.data;
}

type EpssInput = string | Uint8Array | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** The input as a byte stream, and how to let go of it (a pending read cannot be cancelled otherwise). */
function bytesOf(input: EpssInput): { chunks: AsyncIterator<Uint8Array>; release: () => void } {
  if (typeof input === "string" || input instanceof Uint8Array) {
    let bytes: Uint8Array | null = typeof input === "string" ? Buffer.from(input) : input;
    const chunks: AsyncIterator<Uint8Array> = {
      async next() {
        const value = bytes;
        bytes = null;
        return value ? { done: false, value } : { done: true, value: undefined };
      },
    };
    return { chunks, release: () => {} };
  }
  if ("getReader" in input) {
    // A fetch body (web stream).
    const reader = input.getReader();
    return {
      chunks: {
        async next() {
          const { done, value } = await reader.read();
          return done ? { done: true, value: undefined } : { done: false, value };
        },
      },
      release: () => void reader.cancel().catch(() => {}),
    };
  }
  const iterator = input[Symbol.asyncIterator]();
  return {
    chunks: {
      async next() {
        const next = await iterator.next();
        if (next.done || typeof next.value !== "string") return next as IteratorResult<Uint8Array>;
        return { done: false, value: Buffer.from(next.value) };
      },
    },
    release: () => {
      if ("destroy" in input && typeof input.destroy === "function") input.destroy();
      else void iterator.return?.()?.catch?.(() => {});
    },
  };
}

/** The input's bytes, gunzipped when they start with gzip's magic bytes (1f 8b) whatever the URL. */
async function textStreamOf(input: EpssInput): Promise<{ text: Readable; release: () => void }> {
  const { chunks, release } = bytesOf(input);
  const head: Uint8Array[] = [];
  let headSize = 0;
  try {
    while (headSize < 2) {
      const next = await chunks.next();
      if (next.done) break;
      head.push(next.value);
      headSize += next.value.byteLength;
    }
  } catch (error) {
    release();
    throw error;
  }
  const start = Buffer.concat(head);
  const source = Readable.from(
    (async function* () {
      if (start.byteLength > 0) yield start;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    })(),
    { objectMode: false },
  );
  if (start[0] !== 0x1f || start[1] !== 0x8b) return { text: source, release };
  const gunzip = createGunzip();
  // pipeline destroys both on an error; the error reaches the reader through the gunzip stream.
  pipeline(source, gunzip, () => {});
  return { text: gunzip, release };
}

/**
 * Opens an EPSS scores file (a string, bytes, a `Readable` or a fetch body; gzipped or not) and
 * reads its comment and header lines. Throws {@link EpssFormatError} when it is not such a file.
 * The rows then come from `scores`; rows that are not a valid score are skipped and counted.
 */
export async function openEpssScores(input: EpssInput): Promise<EpssScores> {
  const { text, release } = await textStreamOf(input);
  const lines = createInterface({ input: text, crlfDelay: Number.POSITIVE_INFINITY });
  const iterator = lines[Symbol.asyncIterator]();
  let lineNumber = 0;
  const close = () => {
    lines.close();
    text.destroy();
    release();
  };
  const readLine = async (): Promise<string | null> => {
    try {
      const next = await iterator.next();
      if (next.done) return null;
      lineNumber += 1;
      return lineNumber === 1 ? next.value.replace(/^\uFEFF/, "") : next.value;
    } catch (error) {
      close();
      const reason = (error as Error).message;
      throw new EpssFormatError(`The EPSS file cannot be read (truncated download?): ${reason}`, {
        cause: error,
      });
    }
  };

  let metadata: ReturnType<typeof parseCommentLine>;
  try {
    const first = await readLine();
    if (first === null) throw new EpssFormatError("The EPSS file is empty.");
    if (!first.startsWith("#"))
      throw new EpssFormatError(
        `The EPSS file does not start with its #model_version:…,score_date:… line: ${JSON.stringify(first.slice(0, 200))}.`,
      );
    metadata = parseCommentLine(first);
    const header = await readLine();
    if (header?.trim().toLowerCase() !== HEADER)
      throw new EpssFormatError(
        `The EPSS file's second line is not the header ${HEADER}: ${JSON.stringify((header ?? "").slice(0, 200))}.`,
      );
  } catch (error) {
    close();
    throw error;
  }

  const stats = { rows: 0, skipped: { total: 0, byReason: {}, examples: [] } as EpssSkipped };
  const skip = (reason: string) => {
    stats.skipped.total += 1;
    stats.skipped.byReason[reason] = (stats.skipped.byReason[reason] ?? 0) + 1;
    if (stats.skipped.examples.length < MAX_EXAMPLES)
      stats.skipped.examples.push({ line: lineNumber, reason });
  };

  async function* scores(): AsyncGenerator<EpssScore> {
    try {
      for (let line = await readLine(); line !== null; line = await readLine()) {
        if (line.trim() === "") continue;
        const cells = line.split(",");
        if (cells.length !== 3) {
          skip(`expected 3 fields, found ${cells.length}`);
          continue;
        }
        const [cve = "", score = "", percentile = ""] = cells;
        const row = Score.safeParse({
          cve: cve.trim().toUpperCase(),
          score: decimal(score.trim()),
          percentile: decimal(percentile.trim()),
        });
        if (!row.success) {
          skip(row.error.issues[0]?.message ?? "invalid row");
          continue;
        }
        stats.rows += 1;
        yield row.data;
      }
    } finally {
      close();
    }
  }

  return {
    modelVersion: metadata.model_version ?? null,
    scoreDate: metadata.score_date.toISOString().slice(0, 10),
    scoredAt: metadata.score_date,
    scores: scores(),
    stats,
    close,
  };
}
