import { randomBytes } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import { LINK_GRANT_COOKIE } from "@pressguard/domain";
import Fastify, { type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { apiRoutes } from "./composition/api-routes.ts";
import { runInBackground, startBackgroundTasks } from "./composition/background.ts";
import { buildServices } from "./composition/services.ts";
import type { Config } from "./config.ts";
import { publicConfigOf } from "./config.ts";
import type { Database } from "./db/client.ts";
import { registerAccessControl } from "./http/access.ts";
import { createApiRateLimiter, INTERNAL_CALL_HEADER } from "./http/api-rate-limit.ts";
import { handleFrameworkError, type RouteAgain } from "./http/bad-url.ts";
import { registerCompression } from "./http/compression.ts";
import { registerPublicReadCors } from "./http/cors.ts";
import { registerErrorHandlers } from "./http/error-handler.ts";
import { createErrorReporter } from "./http/error-reporting.ts";
import { createResponseStore } from "./http/http-cache.ts";
import { registerIdempotency } from "./http/idempotency.ts";
import { collectPutRoutes, methodOverrideRoutes } from "./http/method-override.ts";
import { createPageReads } from "./http/page-reads.ts";
import {
  API_TAGS,
  registerRouteDocs,
  securitySchemesOf,
  withoutUnusedComponents,
} from "./http/route-docs.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { routeValidatorCompiler } from "./http/service-checked-body.ts";
import { DEFAULT_BUILD_DIR, readBuildInfo, registerWeb } from "./http/web.ts";
import { SESSION_COOKIE } from "./modules/auth/sessions.ts";
import { feedRoutes } from "./modules/feeds/routes.ts";
import { systemRoutes } from "./modules/system/routes.ts";
import { wellKnownRoutes } from "./modules/well-known/routes.ts";
import { utcDayOf } from "./modules/well-known/text-files.ts";

export interface AppOptions {
  config: Config;
  database: Database;
  /** Serve the React application too (main.ts); API-only when omitted (tests, `--api-only`). */
  web?: { mode: "production" | "development"; buildDir: string };
  logger?: FastifyServerOptions["logger"];
}

/**
 * The composition root (decision 039): the HTTP stack in the order its hooks run, the services
 * (composition/services.ts), the background tasks, each a plugin with its own close hook, the routes
 * (composition/api-routes.ts) and the pages.
 */
export async function buildApp({ config, database, web, logger }: AppOptions) {
  // The router's own refusals (a malformed path) answered like any request (http/bad-url.ts).
  let routeAgain: RouteAgain = () => undefined;
  const app = Fastify({
    logger: logger ?? false,
    frameworkErrors: (error, request, reply) => handleFrameworkError(error, request, reply, routeAgain),
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    // SIGTERM drains: requests in flight finish, new ones get 503, idle keep-alive sockets close.
    return503OnClosing: true,
    forceCloseConnections: "idle",
  }).withTypeProvider<ZodTypeProvider>();
  routeAgain = (request, response) => app.routing(request, response);
  app.setValidatorCompiler(routeValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const buildInfo = readBuildInfo(web?.buildDir ?? DEFAULT_BUILD_DIR);
  // Marks the page renderer's own calls to the API, which the public API's rate limit does not count.
  const internalCallSecret = web ? randomBytes(32).toString("base64url") : undefined;
  const errorReporter = await createErrorReporter({ dsn: config.sentryDsn, release: buildInfo.id });
  await runInBackground(app, { start() {}, stop: () => errorReporter.close() });
  registerErrorHandlers(app, errorReporter);
  const services = await buildServices({ config, database, log: app.log });

  // Before access control: a preflight is answered before anyone asks who is calling.
  registerPublicReadCors(app);
  registerSecurityHeaders(app, {
    captcha: config.captcha,
    sentryDsn: config.sentryDsn,
    appUrl: config.appUrl,
    contentSecurityPolicy: web?.mode !== "development",
  });
  const access = registerAccessControl(app, {
    authenticator: services.auth,
    sessionCookie: SESSION_COOKIE,
    credentialCookies: [LINK_GRANT_COOKIE],
    csrfCookie: config.auth.csrf.cookie,
    csrfHeader: config.auth.csrf.header,
    mode: config.auth.mode,
  });
  // The API's reads, answered to server-rendered pages in-process with the same checks (decision 038).
  const pageReads = createPageReads({ log: app.log, errorReporter, access, sessionCookie: SESSION_COOKIE });
  app.decorate("pageRead", pageReads.read);
  // After access control (it finds the API key), before the response store (it answers in preHandler).
  const apiRateLimiter = createApiRateLimiter({
    sql: database.sql,
    ...config.apiRateLimit,
    apiKeyOf: (request) => request.apiKeyId,
    internalSecret: internalCallSecret,
    log: app.log,
  });
  apiRateLimiter.register(app);
  registerIdempotency(app, { database });
  registerRouteDocs(app);
  await registerCompression(app);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      // 3.1: nullable references are `anyOf` with `null` (3.0's `nullable` beside a `$ref` is invalid).
      openapi: "3.1.0",
      info: {
        title: "Pressguard API",
        version: "1.0.0",
        description: "WordPress vulnerability disclosure and database",
        contact: { name: config.site.name, url: config.appUrl },
      },
      tags: API_TAGS,
      servers: [{ url: config.appUrl }],
      components: { securitySchemes: securitySchemesOf(SESSION_COOKIE) },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => withoutUnusedComponents(jsonSchemaTransformObject(input)),
  });

  await startBackgroundTasks(app, config, database, services, apiRateLimiter);

  const putRoutes = collectPutRoutes(app);
  await app.register(apiRoutes, {
    prefix: "/api",
    config,
    services,
    reads: pageReads,
    internalCallSecret,
    openApi: () => app.swagger(),
  });
  await app.register(methodOverrideRoutes, { routes: putRoutes });
  await app.register(systemRoutes, { buildInfo, database });
  await app.register(feedRoutes, { feeds: services.feeds, responseStore: services.responseStore });
  // A store of their own (decision 026): security.txt's Expires moves each UTC day, and the sitemaps
  // (~9 MB a file of 50,000 URLs, ~64 MB with their compressed forms at 250,000 records) must not push
  // the hot public answers out of the main store.
  const dataVersion = services.dataVersion.current;
  await app.register(wellKnownRoutes, {
    wellKnown: services.wellKnown,
    responseStore: createResponseStore(() => `${dataVersion()} ${utcDayOf(new Date())}`, 64 * 1024 * 1024),
  });

  if (web && internalCallSecret) {
    await registerWeb(app, {
      ...web,
      publicConfig: publicConfigOf(config, buildInfo.id),
      pageStore: createResponseStore(() => `${buildInfo.id} ${dataVersion()}`),
      dataVersion,
      sessionCookie: SESSION_COOKIE,
      errorReporter,
      pageRead: pageReads.read,
      internalCallHeaders: { [INTERNAL_CALL_HEADER]: internalCallSecret },
    });
  }

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
