import { z } from "zod";
import { AuthClientConfig } from "./auth-client-config.ts";
import { SiteConfig } from "./site-config.ts";

/**
 * The explicit allow-list of configuration the browser receives (through the root loader).
 * Nothing secret may be added here.
 */
export const PublicConfig = z.object({
  site: SiteConfig,
  auth: AuthClientConfig,
  apiBase: z.string(),
  buildId: z.string(),
  sentryDsn: z.string().optional(),
  /** Query parameters kept in canonical links (spec §9). */
  canonicalQueryWhitelist: z.array(z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
