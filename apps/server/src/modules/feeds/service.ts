import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { NOT_FOUND_MESSAGES, pagePaths } from "../public-records/presenters.ts";
import { createNewestRecords } from "../search/public.ts";
import { toOsv } from "../vulnerabilities/osv.ts";
import { createRecordReader } from "../vulnerabilities/public.ts";
import { type FeedEntryRow, renderAtomFeed } from "./atom.ts";

/** One record of the OSV export: its OSV id, its `modified` (ISO 8601) and its JSON document. */
export interface OsvExportRecord {
  id: string;
  modified: string;
  json: string;
}

/** How many of the newest vulnerabilities a feed lists. */
export const FEED_SIZE = 50;

/** The public database in bulk: the Atom feeds of new vulnerabilities and the OSV export. */
export function createFeedService({ database, appUrl }: { database: Database; appUrl: string }) {
  const newest = createNewestRecords(database);
  const records = createRecordReader(database, appUrl);

  /** The newest records (of one product), each with its description for the entry's content. */
  async function newestEntries(productId?: number): Promise<FeedEntryRow[]> {
    const rows = await newest(FEED_SIZE, productId);
    const descriptions = await records.descriptionsOf(rows.map((row) => row.id));
    return rows.map((row) => ({ ...row, description: descriptions.get(row.id) ?? null }));
  }

  return {
    /** The newest vulnerabilities of every product. */
    async getFeed(): Promise<string> {
      const rows = await newestEntries();
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
      const product = await records.findProduct(platform, kind, slug);
      if (!product) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      const rows = await newestEntries(product.id);
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
        const details = await records.detailsAfter(after, batchSize);
        if (details.length === 0) return;
        yield details.map((detail) => {
          const osv = toOsv(detail, detail.record_dates);
          return { id: osv.id, modified: osv.modified, json: JSON.stringify(osv) };
        });
        after = details.at(-1)?.id ?? null;
        if (details.length < batchSize) return;
      }
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
