import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { DataSourceStatus, DataSourceSyncResult } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import { createDataSourceQueries, type DataSourceRow } from "./queries.ts";
import { type DataSource, type DataSourceCounts, SourceError } from "./source.ts";

/**
 * The upstream data sources (issue 34, decision 035): a registry of sources, each run at most once at a
 * time across every instance (a claim in `data_sources`), its outcome kept in words for staff, and
 * failures retried with back-off. The schedule (jobs/data-sync-job.ts), `npm run data:sync` and the
 * staff's "Sync now" all run sources through `sync`.
 */

/** How long a claim holds without being extended; a run extends it every LEASE_SECONDS / 5. */
const LEASE_SECONDS = 15 * 60;

interface Logger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface DataSourceServiceOptions {
  database: Database;
  sources: readonly DataSource[];
  intervalSeconds: number;
  /** After a run that wrote public data: this instance's caches follow at once. */
  onPublicChange?: () => Promise<void>;
  log?: Logger;
}

export type SyncOutcome =
  | {
      source: string;
      outcome: "synced";
      counts: DataSourceCounts;
      rejections: { id: string; reason: string }[];
    }
  | { source: string; outcome: "not_modified" }
  | { source: string; outcome: "failed"; error: string }
  /** Claimed by another run (another instance, or this one), or not due (scheduled runs only). */
  | { source: string; outcome: "skipped" };

function statusOf(
  source: DataSource,
  row: DataSourceRow | undefined,
  held: DataSourceStatus["held"],
): DataSourceStatus {
  return {
    source: source.name,
    label: source.label,
    configured: source.configured,
    syncing: row?.syncing ?? false,
    last_success_at: isoOrNull(row?.last_success_at ?? null),
    last_attempt_at: isoOrNull(row?.last_attempt_at ?? null),
    next_attempt_at: isoOrNull(row?.next_attempt_at ?? null),
    last_counts: row?.last_counts ?? null,
    last_error: row?.last_error ?? null,
    held,
  };
}

export function createDataSourceService({
  database,
  sources,
  intervalSeconds,
  onPublicChange,
  log,
}: DataSourceServiceOptions) {
  const queries = createDataSourceQueries(database.sql);
  const owner = `${hostname()}:${process.pid}:${randomUUID()}`;

  async function sync(source: DataSource, { scheduled }: { scheduled: boolean }): Promise<SyncOutcome> {
    const claim = await queries.claim(
      source.name,
      owner,
      LEASE_SECONDS,
      scheduled ? { intervalSeconds } : null,
    );
    if (!claim) return { source: source.name, outcome: "skipped" };
    const keepAlive = setInterval(
      () => void queries.extend(source.name, owner, LEASE_SECONDS).catch(() => {}),
      (LEASE_SECONDS / 5) * 1000,
    );
    keepAlive.unref();
    try {
      // Records written since the last document (a feed record with a listed CVE) need it applied
      // again: the catalog may be unchanged, so this request is unconditional (migration 0034).
      const waiting = source.annotatesRecords ? await queries.pendingSignalChecks(source.name) : [];
      const validators = waiting.length > 0 ? { etag: null, lastModified: null } : claim.validators;
      const result = await source.run({ database, validators });
      if (waiting.length > 0) await queries.clearSignalChecks(source.name, waiting);
      if (result.kind === "not_modified") {
        await queries.succeeded(source.name, owner, null);
        log?.info({ source: source.name }, "data source not modified");
        return { source: source.name, outcome: "not_modified" };
      }
      await queries.succeeded(source.name, owner, result);
      if (result.wrote) await onPublicChange?.();
      log?.info({ source: source.name, ...result.counts }, "data source synced");
      return { source: source.name, outcome: "synced", counts: result.counts, rejections: result.rejections };
    } catch (error) {
      const words =
        error instanceof SourceError
          ? error.message
          : `The sync failed: ${(error as Error).message ?? error}`;
      const retryAfter = error instanceof SourceError ? (error.retryAfterSeconds ?? null) : null;
      await queries.failed(source.name, owner, words, intervalSeconds, retryAfter);
      log?.error({ source: source.name, err: error instanceof SourceError ? undefined : error }, words);
      return { source: source.name, outcome: "failed", error: words };
    } finally {
      clearInterval(keepAlive);
    }
  }

  const configured = () => sources.filter((source) => source.configured);

  function sourceNamed(name: string): DataSource {
    const source = sources.find((candidate) => candidate.name === name);
    if (!source) throw new AppError("not_found", { message: "There is no data source of that name." });
    return source;
  }

  async function list(): Promise<DataSourceStatus[]> {
    const rows = new Map((await queries.list()).map((row) => [row.source, row]));
    const held = await Promise.all(sources.map((source) => source.held(database)));
    return sources.map((source, index) => statusOf(source, rows.get(source.name), held[index]!));
  }

  return {
    list,

    /** "Sync now": runs one source at once, whatever its schedule, unless a run is under way. */
    async syncNow(name: string): Promise<DataSourceSyncResult> {
      const source = sourceNamed(name);
      if (!source.configured)
        throw new AppError("conflict", { message: `${source.label} is not configured.` });
      const outcome = await sync(source, { scheduled: false });
      if (outcome.outcome === "skipped")
        throw new AppError("conflict", { message: `A sync of ${source.label} is already under way.` });
      const status = (await list()).find((entry) => entry.source === source.name)!;
      return {
        source: source.name,
        outcome: outcome.outcome,
        counts: outcome.outcome === "synced" ? outcome.counts : null,
        error: outcome.outcome === "failed" ? outcome.error : null,
        status,
      };
    },

    /** The schedule's pass: every configured source that is due and not claimed elsewhere. */
    async runDue(): Promise<SyncOutcome[]> {
      const outcomes: SyncOutcome[] = [];
      for (const source of configured()) outcomes.push(await sync(source, { scheduled: true }));
      return outcomes;
    },

    /** `npm run data:sync`: every configured source once, due or not. */
    async runAll(): Promise<SyncOutcome[]> {
      const outcomes: SyncOutcome[] = [];
      for (const source of configured()) outcomes.push(await sync(source, { scheduled: false }));
      return outcomes;
    },

    hasConfiguredSources: () => configured().length > 0,
  };
}

export type DataSourceService = ReturnType<typeof createDataSourceService>;
