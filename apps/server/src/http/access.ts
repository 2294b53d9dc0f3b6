import type { FastifyInstance } from "fastify";

/** Who may call a route (STYLE.md): declared on every API route, enforced in one place. */
export type AccessLevel = "public" | "researcher" | "vendor" | "staff";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessLevel;
  }
}

/**
 * Refuses to start when an API route forgets to declare its access level, so no route is public
 * by accident. The accounts module adds the checks for the signed-in levels.
 */
export function registerAccessControl(app: FastifyInstance) {
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api")) return;
    const access = (route.config as { access?: AccessLevel } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access level`);
  });
}
