import { bumpDataVersion } from "../../db/data-version.ts";
import { annotatedCount, liveAnnotatedCount, readStoredAnnotations } from "./annotation-queries.ts";
import { cveKey, writeCveAnnotations } from "./cve-annotations.ts";
import { EpssFormatError, openEpssScores } from "./epss.ts";
import { type DataSource, SourceError, type SourceRunContext, type SourceRunResult } from "./source.ts";
import { fetchUpstream } from "./upstream-http.ts";

/**
 * The FIRST EPSS source (issue 34, decision 035): the day's scores file (~250,000–400,000 rows,
 * gzipped or not) is fetched conditionally, taken in as sent (compressed), then parsed as a stream,
 * line by line; only the rows of CVEs that records carry are kept (memory follows the records, not
 * the file's rows). Once the whole file has been read, every
 * record with a listed CVE gets `epss = { score, percentile, date }` (numbers, `YYYY-MM-DD`), every
 * other record `null`, in set-based batches that write only the records whose value changes. A file
 * that breaks off or is not a scores file changes nothing.
 */

const REJECTIONS_KEPT = 50;
/** Far above the real file (~2.5 MB gzipped, ~15 MB not): a larger answer is not the scores file. */
const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;

export interface EpssSourceOptions {
  url: string;
  idleTimeoutMs?: number;
}

export function createEpssSource(options: EpssSourceOptions | null): DataSource {
  return {
    name: "epss",
    annotatesRecords: true,
    label: "FIRST EPSS exploit prediction scores",
    configured: options !== null,
    run: (context) => {
      if (!options) throw new SourceError("EPSS_URL is off.");
      return syncEpss(context, options);
    },
    held: async (database) => ({
      count: await liveAnnotatedCount(database.sql, "epss"),
      what: "records with an EPSS score",
    }),
  };
}

interface Score {
  score: number;
  percentile: number;
}

async function syncEpss(
  { database, validators }: SourceRunContext,
  options: EpssSourceOptions,
): Promise<SourceRunResult> {
  const response = await fetchUpstream({
    url: options.url,
    name: "The EPSS file",
    validators,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  if (response.kind === "not_modified") return { kind: "not_modified" };

  // The download is taken in as it comes (its compressed bytes: ~2.5 MB), so that the upstream is
  // never left waiting on a reader busy with the database.
  const download: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_DOWNLOAD_BYTES)
      throw new SourceError(
        `The EPSS file is larger than ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB; taken for something else. Nothing was changed.`,
      );
    download.push(chunk);
  }
  // The CVEs the records carry (and their scores now): only their rows are kept from the file.
  const stored = await readStoredAnnotations(database.sql, "epss");
  const wanted = new Set(stored.map((row) => cveKey(row.cve)));
  const scores = new Map<string, Score>();
  let file: Awaited<ReturnType<typeof openEpssScores>>;
  try {
    file = await openEpssScores(
      (async function* () {
        for (let chunk = download.shift(); chunk; chunk = download.shift()) yield chunk;
      })(),
    );
    for await (const row of file.scores) {
      if (wanted.has(row.cve)) scores.set(row.cve, { score: row.score, percentile: row.percentile });
    }
  } catch (error) {
    if (error instanceof EpssFormatError) throw new SourceError(`${error.message} Nothing was changed.`);
    throw error;
  }
  if (file.stats.rows === 0) {
    const scored = await annotatedCount(database.sql, "epss");
    if (scored > 0)
      throw new SourceError(
        `The EPSS file holds no valid score while ${scored} records have one; taken for a broken file. Nothing was changed.`,
      );
  }

  const date = file.scoreDate;
  const written = await writeCveAnnotations(database.sql, "epss", stored, (cve) => {
    const score = scores.get(cve);
    return score ? { score: score.score, percentile: score.percentile, date } : null;
  });
  const counts = { ...written, rejected: file.stats.skipped.total };
  const wrote = written.new + written.changed + written.withdrawn > 0;
  if (wrote) await bumpDataVersion(database.sql);
  return {
    kind: "synced",
    counts,
    rejections: file.stats.skipped.examples
      .slice(0, REJECTIONS_KEPT)
      .map(({ line, reason }) => ({ id: `line ${line}`, reason })),
    validators: response.validators,
    wrote,
  };
}
