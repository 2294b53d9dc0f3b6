import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import {
  type DataSource,
  type DataSourceCounts,
  SourceError,
  type SourceRunContext,
  type SourceRunResult,
  ZERO_COUNTS,
} from "./source.ts";
import { type DirectoryInfo, fetchDirectoryInfo, WporgError } from "./wporg.ts";
import {
  checkedProductCount,
  type DueProduct,
  dueProducts,
  markChecked,
  refreshInferredFixes,
  writeDirectoryValues,
} from "./wporg-queries.ts";

/**
 * The WordPress.org directory source (issue 34, decision 035): for the plugins and themes Pressguard
 * knows, the directory's current version, active installs, last update and closed state. There is
 * no document to fetch conditionally: each run asks about the products checked longest ago
 * (`directory_checked_at nulls first`), at most `maxPerRun` of them and none checked within
 * `recheckSeconds`, four at a time, and writes each group of answers set-based (only products whose
 * values change are written; every product asked gets its `directory_checked_at`), so a run cut short
 * keeps what it learnt and the next one goes on from there. A new `version` re-runs the inferred
 * fixes ("fixed in a later version", db/infer-fixed.ts), and a run that changed anything public
 * bumps the data version, which the batch check's `latest` and every cache follow.
 *
 * Counts are of products: changed (version, installs, last update or closed state), withdrawn (closed
 * or removed this run; counted apart from changed), unchanged, rejected (not in the directory, or an
 * answer that could not be read; each is also checked, so it waits its turn again). `new` stays 0: the
 * directory brings no new products. WordPress.org unreachable, answering 5xx or 429 ends the run as a
 * failure; what earlier groups wrote stays (it is the directory's current word).
 */

/** Products asked about per run: 2,000 an hour goes round 60,000 products in about 30 hours. */
const MAX_PER_RUN = 2000;
/** A product answered within this long is not asked again. */
const RECHECK_SECONDS = 24 * 3600;
const CONCURRENCY = 4;
/** Answers written per statement. */
const GROUP = 100;
const REJECTIONS_KEPT = 50;
/** A group of at least this many answers, all unreadable, is WordPress.org failing, not the products. */
const UNREADABLE_GROUP_FLOOR = 10;

export interface WporgSourceOptions {
  apiUrl: string;
  maxPerRun?: number;
  recheckSeconds?: number;
  concurrency?: number;
  /** Per request; default 15 s (wporg.ts). */
  timeoutMs?: number;
}

export function createWporgSource(options: WporgSourceOptions | null): DataSource {
  return {
    name: "wporg",
    label: "WordPress.org plugin and theme directory",
    configured: options !== null,
    run: (context) => {
      if (!options) throw new SourceError("WPORG_API_URL is off.");
      return syncWporg(context, options);
    },
    held: async (database) => ({
      count: await checkedProductCount(database.sql),
      what: "products checked against the directory",
    }),
  };
}

type Answer = { product: DueProduct } & ({ info: DirectoryInfo } | { unreadable: string });

/** The directory's own spelling of a last update (as the bundled plugin data has it): `2024-05-30 3:12pm GMT`. */
export function directoryDateText(date: Date): string {
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${date.toISOString().slice(0, 10)} ${hour12}:${minutes}${hours < 12 ? "am" : "pm"} GMT`;
}

/** Whether a failure is WordPress.org's as a whole (unreachable, overloaded, limiting us). */
const isHostFailure = (error: WporgError) =>
  error.status === null || error.status === 429 || error.status >= 500;

/** Asks about `products`, `concurrency` at a time; the first failure of the host ends the group. */
async function askAll(products: DueProduct[], options: WporgSourceOptions): Promise<Answer[]> {
  const answers: Answer[] = new Array(products.length);
  let next = 0;
  let failure: SourceError | null = null;
  const worker = async () => {
    while (failure === null && next < products.length) {
      const index = next++;
      const product = products[index]!;
      try {
        const info = await fetchDirectoryInfo(options.apiUrl, product.kind, product.slug, {
          timeoutMs: options.timeoutMs,
        });
        answers[index] = { product, info };
      } catch (error) {
        if (!(error instanceof WporgError)) throw error;
        if (isHostFailure(error)) {
          failure ??= new SourceError(error.message);
          return;
        }
        answers[index] = { product, unreadable: error.message };
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency ?? CONCURRENCY, products.length) }, worker),
  );
  if (failure) throw failure;
  return answers;
}

interface GroupResult {
  changed: number;
  closed: number;
  versionChanged: boolean;
}

/**
 * Writes one group of answers: the directory's values of the open and closed products whose values
 * change (one statement), then `directory_checked_at` of every product asked. A closed product keeps
 * its version and installs; its `closed_at` is the directory's closing date, else when first seen
 * closed. An open one clears `closed_at`.
 */
async function writeGroup(sql: SqlRunner, answers: Answer[]): Promise<GroupResult> {
  const ids: number[] = [];
  const states: string[] = [];
  const versions: (string | null)[] = [];
  const installs: (number | null)[] = [];
  const updated: (string | null)[] = [];
  const closedAt: (string | null)[] = [];
  for (const answer of answers) {
    if (!("info" in answer)) continue;
    const { info } = answer;
    if (info.state === "not_found") continue;
    ids.push(answer.product.id);
    states.push(info.state);
    versions.push(info.state === "open" ? info.version : null);
    installs.push(info.state === "open" ? info.activeInstalls : null);
    updated.push(info.state === "open" && info.lastUpdated ? directoryDateText(info.lastUpdated) : null);
    closedAt.push(info.state === "closed" && info.closedDate ? `${info.closedDate}T00:00:00Z` : null);
  }
  return sql.transaction(async (tx) => {
    const written = await writeDirectoryValues(tx, { ids, states, versions, installs, updated, closedAt });
    await markChecked(
      tx,
      answers.map((answer) => answer.product.id),
    );
    return written;
  });
}

async function syncWporg(
  { database }: SourceRunContext,
  options: WporgSourceOptions,
): Promise<SourceRunResult> {
  const products = await dueProducts(
    database.sql,
    options.maxPerRun ?? MAX_PER_RUN,
    options.recheckSeconds ?? RECHECK_SECONDS,
  );
  const counts: DataSourceCounts = { ...ZERO_COUNTS };
  const rejections: { id: string; reason: string }[] = [];
  const reject = (product: DueProduct, reason: string) => {
    counts.rejected++;
    if (rejections.length < REJECTIONS_KEPT)
      rejections.push({ id: `${product.kind} ${product.slug}`, reason });
  };
  let versionChanged = false;
  try {
    for (let start = 0; start < products.length; start += GROUP) {
      const answers = await askAll(products.slice(start, start + GROUP), options);
      const unreadable = answers.filter((answer) => "unreadable" in answer);
      if (unreadable.length >= UNREADABLE_GROUP_FLOOR && unreadable.length === answers.length) {
        const first = unreadable[0] as { unreadable: string };
        throw new SourceError(
          `WordPress.org answered ${answers.length} requests in a row with something that is not the directory's information (${first.unreadable}).`,
        );
      }
      let answered = 0;
      for (const answer of answers) {
        if ("unreadable" in answer) reject(answer.product, answer.unreadable);
        else if (answer.info.state === "not_found")
          reject(answer.product, "not in the WordPress.org directory");
        else answered++;
      }
      const group = await writeGroup(database.sql, answers);
      counts.changed += group.changed;
      counts.withdrawn += group.closed;
      counts.unchanged += answered - group.changed - group.closed;
      versionChanged ||= group.versionChanged;
    }
  } finally {
    // What was written stays, finished as a whole run's would be: the inferred fixes follow the new
    // versions, and caches the data version.
    if (counts.changed + counts.withdrawn > 0) {
      if (versionChanged) await refreshInferredFixes(database.sql);
      await bumpDataVersion(database.sql);
    }
  }
  return {
    kind: "synced",
    counts,
    rejections,
    validators: { etag: null, lastModified: null },
    wrote: counts.changed + counts.withdrawn > 0,
  };
}
