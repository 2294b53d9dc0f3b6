import type { Config } from "../../config.ts";
import type { DataSource } from "./source.ts";
import { createWordfenceSource } from "./sync-wordfence.ts";

/**
 * Every data source the sync knows (decision 035), configured or not, in the order they run: the
 * records first, then what annotates them. A new source is one more entry here (kev, epss, wporg).
 */
export function dataSourcesOf(config: Pick<Config, "dataSources">): DataSource[] {
  return [createWordfenceSource(config.dataSources.wordfence)];
}
