import { join } from "node:path";
import { readLines } from "./import-records.ts";
import { DEFAULT_SEED_DIR } from "./seed.ts";

/**
 * A fixed slice of the real seed for tests (issue 5: "test it on a sample you hold back"): every
 * `step`-th line of vulns.jsonl.gz, starting at line `offset`, and the plugin directory lines of the
 * plugins those records name. Test infrastructure only; the same arguments always give the same lines.
 */
export interface SeedSample {
  vulnerabilityLines: string[];
  pluginLines: string[];
}

export async function readSeedSample(
  step: number,
  offset = 1,
  dataDir: string = DEFAULT_SEED_DIR,
): Promise<SeedSample> {
  const vulnerabilityLines: string[] = [];
  const pluginSlugs = new Set<string>();
  for await (const { line, text } of await readLines(join(dataDir, "vulns.jsonl.gz"))) {
    if (line < offset || (line - offset) % step !== 0) continue;
    vulnerabilityLines.push(text);
    const record = JSON.parse(text) as { software: { software_type: string; slug: string }[] };
    for (const item of record.software) {
      if (item.software_type === "plugin") pluginSlugs.add(item.slug);
    }
  }
  const pluginLines: string[] = [];
  for await (const { text } of await readLines(join(dataDir, "plugins.jsonl.gz"))) {
    // The slug is the record's first field; parsing 12,000 lines just to read it costs ~1 s.
    const slug = /^\{"slug":\s*"([^"]+)"/.exec(text)?.[1] ?? (JSON.parse(text) as { slug: string }).slug;
    if (pluginSlugs.has(slug)) pluginLines.push(text);
  }
  return { vulnerabilityLines, pluginLines };
}
