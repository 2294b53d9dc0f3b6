import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import Fastify, { type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { publicConfigOf } from "./config.ts";
import type { Database } from "./db/client.ts";
import { registerAccessControl } from "./http/access.ts";
import { registerErrorHandlers } from "./http/error-handler.ts";
import { DEFAULT_BUILD_DIR, readBuildInfo, registerWeb } from "./http/web.ts";
import { prepareProductQueries } from "./modules/products/queries.ts";
import { productRoutes } from "./modules/products/routes.ts";
import { createFooterMetricsService } from "./modules/products/service.ts";
import { systemRoutes } from "./modules/system/routes.ts";

export interface AppOptions {
  config: Config;
  database: Database;
  /** Serve the React application too (main.ts); API-only when omitted (tests, `--api-only`). */
  web?: { mode: "production" | "development"; buildDir: string };
  logger?: FastifyServerOptions["logger"];
}

/** The composition root: every module is wired here, one line each. */
export async function buildApp({ config, database, web, logger }: AppOptions) {
  const app = Fastify({
    logger: logger ?? false,
    trustProxy: true,
    bodyLimit: 1_048_576,
    // SIGTERM drains: requests in flight finish, new ones get 503, idle keep-alive sockets close.
    return503OnClosing: true,
    forceCloseConnections: "idle",
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandlers(app);
  registerAccessControl(app);

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Pressguard API",
        version: "1.0.0",
        description: "WordPress vulnerability disclosure and database",
      },
      servers: [{ url: config.appUrl }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  const buildDir = web?.buildDir ?? DEFAULT_BUILD_DIR;
  const buildInfo = readBuildInfo(buildDir);
  const footerMetrics = createFooterMetricsService(prepareProductQueries(database.read));

  await app.register(
    async (api) => {
      await api.register(productRoutes, { footerMetrics });
      api.get("/openapi.json", { schema: { hide: true }, config: { access: "public" } }, () => app.swagger());
      // Unknown API paths answer JSON, not the web app's HTML 404.
      api.all("/*", { schema: { hide: true }, config: { access: "public" } }, (_request, reply) =>
        reply.callNotFound(),
      );
    },
    { prefix: "/api" },
  );
  await app.register(systemRoutes, { buildInfo, database });

  if (web) await registerWeb(app, { ...web, publicConfig: publicConfigOf(config, buildInfo.id) });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
