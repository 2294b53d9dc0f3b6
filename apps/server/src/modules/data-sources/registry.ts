import type { Config } from "../../config.ts";
import type { DataSource } from "./source.ts";
import { createEpssSource } from "./sync-epss.ts";
import { createKevSource } from "./sync-kev.ts";
import { createWordfenceSource } from "./sync-wordfence.ts";
import { createWporgSource } from "./sync-wporg.ts";

/**
 * Every data source the sync knows (decision 035), configured or not, in the order they run: the
 * records first, then what annotates them (known exploitation, exploit likelihood, the directory's
 * state of their products). A source whose URL is `off` (null here) is listed, not configured.
 */
export function dataSourcesOf(config: Pick<Config, "dataSources">): DataSource[] {
  const { wordfence, kevUrl, epssUrl, wporgApiUrl } = config.dataSources;
  return [
    createWordfenceSource(wordfence),
    createKevSource(kevUrl ? { url: kevUrl } : null),
    createEpssSource(epssUrl ? { url: epssUrl } : null),
    createWporgSource(wporgApiUrl ? { apiUrl: wporgApiUrl } : null),
  ];
}
