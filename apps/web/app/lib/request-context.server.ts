import { DEFAULT_AUTH_CLIENT_CONFIG, PublicConfig } from "@pressguard/domain";
import type { AppLoadContext } from "react-router";

/** Query parameters kept in canonical links when the server gives no list (spec §9). */
const DEFAULT_CANONICAL_QUERY_WHITELIST = ["page", "q", "type", "severity"];

export interface RequestContext {
  publicConfig: PublicConfig;
}

const developmentConfigs = new Map<string, PublicConfig>();

/**
 * The public config of this request. The production server always provides it (see
 * `load-context.ts`); under `react-router dev` the context is empty, so a development config is
 * built from the product's defaults with the dev server's own origin as the site.
 */
export function getRequestContext(
  context: Partial<AppLoadContext> | undefined,
  request: Request,
): RequestContext {
  return { publicConfig: context?.publicConfig ?? developmentPublicConfig(new URL(request.url).origin) };
}

export function developmentPublicConfig(siteUrl = "http://localhost:5173"): PublicConfig {
  let config = developmentConfigs.get(siteUrl);
  if (!config) {
    config = PublicConfig.parse({
      site: { url: siteUrl, indexable: false },
      auth: DEFAULT_AUTH_CLIENT_CONFIG,
      apiBase: "/api",
      buildId: "development",
      canonicalQueryWhitelist: DEFAULT_CANONICAL_QUERY_WHITELIST,
    });
    developmentConfigs.set(siteUrl, config);
  }
  return config;
}

/** `/api` on `http://127.0.0.1:3000` → `http://127.0.0.1:3000/api`; absolute bases stay as they are. */
export function absoluteApiBase(apiOrigin: string, base: string): string {
  if (/^https?:\/\//i.test(base)) return base;
  return `${apiOrigin.replace(/\/+$/, "")}/${base.replace(/^\/+/, "")}`;
}
