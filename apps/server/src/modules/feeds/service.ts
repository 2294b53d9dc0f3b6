import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createSearchQueries } from "../search/queries.ts";
import { toOsv } from "../vulnerabilities/osv.ts";
import { detailOf, NOT_FOUND_MESSAGES, pagePaths } from "../vulnerabilities/presenters.ts";
import { createVulnerabilityQueries } from "../vulnerabilities/queries.ts";
import { renderAtomFeed } from "./atom.ts";

/** One record of the OSV export: its OSV id, its `modified` (ISO 8601) and its JSON document. */
export interface OsvExportRecord {
  id: string;
  modified: string;
  json: string;
}

/** How many of the newest vulnerabilities a feed lists. */
export const FEED_SIZE = 50;

/** Rows keyed by their vulnerability (Map.groupBy needs Node 21). */
function groupByVulnerability<Row extends { vulnerabilityId: string }>(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.vulnerabilityId);
    if (group) group.push(row);
    else groups.set(row.vulnerabilityId, [row]);
  }
  return groups;
}

/** The public database in bulk: the Atom feeds of new vulnerabilities and the OSV export. */
export function createFeedService({ database, appUrl }: { database: Database; appUrl: string }) {
  const search = createSearchQueries(database);
  const records = createVulnerabilityQueries(database);

  return {
    /** The newest vulnerabilities of every product. */
    async getFeed(): Promise<string> {
      // The newest only: a limit of one page spares counting every record.
      const { rows } = await search.search({
        sort: "date",
        limit: FEED_SIZE,
        offset: 0,
        matchLimit: FEED_SIZE,
      });
      return renderAtomFeed({
        title: "Pressguard: new WordPress vulnerabilities",
        selfUrl: `${appUrl}/database/feed`,
        alternateUrl: `${appUrl}/database`,
        appUrl,
        rows,
      });
    },

    /** The newest vulnerabilities of one product; not found when the product is unknown. */
    async getProductFeed(platform: string, kind: string, slug: string): Promise<string> {
      const product = await records.findProductByPath(platform, kind, slug);
      if (!product) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      const { rows } = await search.search({
        sort: "date",
        limit: FEED_SIZE,
        offset: 0,
        productId: product.id,
        matchLimit: FEED_SIZE,
      });
      const path = `/database/${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}`;
      return renderAtomFeed({
        title: `Pressguard: ${product.name} vulnerabilities`,
        selfUrl: `${appUrl}${path}/feed`,
        alternateUrl: appUrl + pagePaths.product(product),
        appUrl,
        rows,
      });
    },

    /**
     * Every record as OSV, in id order, one batch of `batchSize` at a time (three queries each): its
     * OSV id, its `modified` and its JSON document (no newline).
     */
    async *osvBatches(batchSize = 500): AsyncGenerator<OsvExportRecord[]> {
      let after: string | null = null;
      for (;;) {
        const rows = await records.vulnerabilityBatch(after, batchSize);
        if (rows.length === 0) return;
        const ids = rows.map((row) => row.id);
        const [ranges, creditRows] = await Promise.all([
          records.rangesOfMany(ids),
          records.creditsOfMany(ids),
        ]);
        const rangesBy = groupByVulnerability(ranges);
        const creditsBy = groupByVulnerability(creditRows);
        yield rows.map((row) => {
          const detail = detailOf(appUrl, row, rangesBy.get(row.id) ?? [], creditsBy.get(row.id) ?? []);
          const osv = toOsv(detail, detail.record_dates);
          return { id: osv.id, modified: osv.modified, json: JSON.stringify(osv) };
        });
        after = rows.at(-1)?.id ?? null;
        if (rows.length < batchSize) return;
      }
    },

    /** Every record as OSV, one JSON document per line, a chunk of lines per batch. */
    async *exportOsv(batchSize = 500): AsyncGenerator<string> {
      for await (const batch of this.osvBatches(batchSize))
        yield batch.map((record) => `${record.json}\n`).join("");
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
