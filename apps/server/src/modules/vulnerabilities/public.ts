import type { VulnerabilityDetail } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { createVulnerabilityQueries } from "./queries.ts";
import { detailOf } from "./record-detail.ts";

/**
 * What other modules use of `vulnerabilities` besides its service (issue 36: modules meet only
 * through services; its queries stay its own): a product by its page's path, every record in
 * batches and the descriptions of the newest (`feeds`), a researcher by uuid (`search`).
 */

export type { ProductCounters } from "./queries.ts";

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

/** The public records, read for other modules; `appUrl` makes the records' URLs. */
export function createRecordReader(database: Database, appUrl: string) {
  const records = createVulnerabilityQueries(database);

  return {
    /** The product of a database page's path, or null (its slug as written upstream or as identifiers write it). */
    findProduct: (platform: string, kind: string, slug: string) =>
      records.findProductByPath(platform, kind, slug),

    /** The id of the researcher with this (lowercase) uuid, or null. */
    async researcherIdOf(uuid: string): Promise<number | null> {
      return (await records.findResearcher(uuid))?.id ?? null;
    },

    /** The descriptions of these records by id; one absent or without a description is left out. */
    async descriptionsOf(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await records.descriptionsOfMany(ids);
      return new Map(rows.flatMap((row) => (row.description ? [[row.id, row.description] as const] : [])));
    },

    /**
     * Every record in id order, `limit` at a time: those after the record `after` (null: from the
     * first), as the record's answer. Three queries a batch.
     */
    async detailsAfter(after: string | null, limit: number): Promise<VulnerabilityDetail[]> {
      const rows = await records.vulnerabilityBatch(after, limit);
      if (rows.length === 0) return [];
      const ids = rows.map((row) => row.id);
      const [ranges, creditRows] = await Promise.all([records.rangesOfMany(ids), records.creditsOfMany(ids)]);
      const rangesBy = groupByVulnerability(ranges);
      const creditsBy = groupByVulnerability(creditRows);
      return rows.map((row) =>
        detailOf(appUrl, row, rangesBy.get(row.id) ?? [], creditsBy.get(row.id) ?? []),
      );
    },
  };
}
