import { bumpDataVersion } from "../../db/data-version.ts";
import { annotatedCount, liveAnnotatedCount, readStoredAnnotations } from "./annotation-queries.ts";
import { writeCveAnnotations } from "./cve-annotations.ts";
import { KevFormatError, parseKevCatalog } from "./kev.ts";
import { type DataSource, SourceError, type SourceRunContext, type SourceRunResult } from "./source.ts";
import { fetchUpstream } from "./upstream-http.ts";

/**
 * The CISA Known Exploited Vulnerabilities source (issue 34, decision 035): the catalog is fetched
 * conditionally and parsed whole (~1.5 MB); only a complete, valid catalog is written. Every record
 * whose CVE it lists gets `known_exploited = { date_added, due_date, ransomware }`, every other record
 * `null`. Counts are of records: new (flagged), changed (its listing changed), withdrawn (no longer
 * listed), unchanged (still listed alike); rejected counts the catalog entries skipped as invalid.
 */

const REJECTIONS_KEPT = 50;

export interface KevSourceOptions {
  url: string;
  idleTimeoutMs?: number;
}

export function createKevSource(options: KevSourceOptions | null): DataSource {
  return {
    name: "kev",
    annotatesRecords: true,
    label: "CISA Known Exploited Vulnerabilities catalog",
    configured: options !== null,
    run: (context) => {
      if (!options) throw new SourceError("KEV_URL is off.");
      return syncKev(context, options);
    },
    held: async (database) => ({
      count: await liveAnnotatedCount(database.sql, "known_exploited"),
      what: "records CISA lists as exploited",
    }),
  };
}

async function syncKev(
  { database, validators }: SourceRunContext,
  options: KevSourceOptions,
): Promise<SourceRunResult> {
  const response = await fetchUpstream({
    url: options.url,
    name: "The KEV catalog",
    validators,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  if (response.kind === "not_modified") return { kind: "not_modified" };

  let catalog: Awaited<ReturnType<typeof parseKevCatalog>>;
  try {
    catalog = await parseKevCatalog(response.body);
  } catch (error) {
    if (error instanceof KevFormatError) throw new SourceError(`${error.message} Nothing was changed.`);
    throw error;
  }
  if (catalog.entries.size === 0) {
    const flagged = await annotatedCount(database.sql, "known_exploited");
    if (flagged > 0)
      throw new SourceError(
        `The KEV catalog lists no valid entry while ${flagged} records are flagged known exploited; taken for a broken catalog. Nothing was changed.`,
      );
  }

  const stored = await readStoredAnnotations(database.sql, "known_exploited");
  const written = await writeCveAnnotations(
    database.sql,
    "known_exploited",
    stored,
    (cve) => catalog.entries.get(cve) ?? null,
  );
  const counts = { ...written, rejected: catalog.skipped.total };
  const wrote = written.new + written.changed + written.withdrawn > 0;
  if (wrote) await bumpDataVersion(database.sql);
  return {
    kind: "synced",
    counts,
    rejections: catalog.skipped.examples
      .slice(0, REJECTIONS_KEPT)
      .map(({ index, cve, reason }) => ({ id: cve ?? `entry ${index + 1}`, reason })),
    validators: response.validators,
    wrote,
  };
}
