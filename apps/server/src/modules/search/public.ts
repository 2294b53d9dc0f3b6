import type { Database } from "../../db/client.ts";
import { createSearchQueries, type SummaryRow } from "./queries.ts";

/**
 * What other modules use of `search` besides its service (issue 36: modules meet only through
 * services; its queries stay its own): the newest records, as the Atom feeds (`feeds`) list them.
 */

export type { SummaryRow } from "./queries.ts";

/** The newest records (by date), of every product or of the product `productId`: at most `limit`. */
export function createNewestRecords(database: Database) {
  const queries = createSearchQueries(database);
  return async (limit: number, productId?: number): Promise<SummaryRow[]> => {
    // The newest only: a limit of one page spares counting every record.
    const { rows } = await queries.search({
      sort: "date",
      limit,
      offset: 0,
      ...(productId !== undefined && { productId }),
      matchLimit: limit,
    });
    return rows;
  };
}
