import { z } from "zod";

/** What `/builds/latest.json` answers (spec §4, §7); read by `fetchLatestBuild` (app-version.ts). */
export const LatestBuild = z.object({ id: z.string().min(1), timestamp: z.number() });
export type LatestBuild = z.infer<typeof LatestBuild>;
