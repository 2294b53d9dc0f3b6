import { DEFAULT_AUTH_CLIENT_CONFIG, PublicConfig } from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { parseAuthClientConfig } from "./api/auth-config.ts";

/** Query parameters kept in canonical links when the server gives no list (spec §9). */
const DEFAULT_CANONICAL_QUERY_WHITELIST = ["page", "q", "type", "severity"];

export interface RequestContext {
  publicConfig: PublicConfig;
}

const developmentConfigs = new Map<string, PublicConfig>();
/** Each public config the server hands over, with its auth client configuration checked once. */
const checkedConfigs = new WeakMap<PublicConfig, PublicConfig>();

/**
 * The public config of this request. The production server always provides it (see
 * `load-context.ts`); under `react-router dev` the context is empty, so a development config is
 * built from the product's defaults with the dev server's own origin as the site.
 */
export function getRequestContext(
  context: Partial<AppLoadContext> | undefined,
  request: Request,
): RequestContext {
  const given = context?.publicConfig ?? developmentPublicConfig(new URL(request.url).origin);
  return { publicConfig: checked(given) };
}

/**
 * The auth client configuration is checked here, on the server, with the specification's message for
 * the first missing option (spec §5, §8: `parseAuthClientConfig`), once per config; the browser
 * takes it from the root loader's data as checked, so no page loads zod for it (issue 35).
 */
function checked(publicConfig: PublicConfig): PublicConfig {
  let config = checkedConfigs.get(publicConfig);
  if (!config) {
    config = { ...publicConfig, auth: parseAuthClientConfig(publicConfig.auth) };
    checkedConfigs.set(publicConfig, config);
  }
  return config;
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
