import { randomBytes } from "node:crypto";
import { join } from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import { API_KEY_SCOPES, LINK_GRANT_COOKIE } from "@pressguard/domain";
import Fastify, { type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { publicConfigOf } from "./config.ts";
import type { Database } from "./db/client.ts";
import { watchDataVersion } from "./db/data-version.ts";
import { signingKeyOf } from "./db/signing-keys.ts";
import { publicData, registerAccessControl } from "./http/access.ts";
import { createApiRateLimiter, INTERNAL_CALL_HEADER } from "./http/api-rate-limit.ts";
import { handleFrameworkError, type RouteAgain } from "./http/bad-url.ts";
import { registerCompression } from "./http/compression.ts";
import { registerPublicReadCors } from "./http/cors.ts";
import { registerErrorHandlers } from "./http/error-handler.ts";
import { createErrorReporter } from "./http/error-reporting.ts";
import { createResponseStore } from "./http/http-cache.ts";
import { registerIdempotency } from "./http/idempotency.ts";
import { collectPutRoutes, methodOverrideRoutes } from "./http/method-override.ts";
import { createPublicReads } from "./http/public-reads.ts";
import { rejectMalformedInput } from "./http/reject-malformed-input.ts";
import {
  API_TAGS,
  registerRouteDocs,
  securitySchemesOf,
  withoutUnusedComponents,
} from "./http/route-docs.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { routeValidatorCompiler } from "./http/service-checked-body.ts";
import { createVisitorClientInfo } from "./http/visitor-address.ts";
import { DEFAULT_BUILD_DIR, readBuildInfo, registerWeb } from "./http/web.ts";
import { createDataSyncJob } from "./jobs/data-sync-job.ts";
import { createDeadlineJob } from "./jobs/deadline-job.ts";
import { createExploitationJob } from "./jobs/exploitation-job.ts";
import { createForwardingWorker } from "./jobs/forwarding-worker.ts";
import { createWatchAlertJob } from "./jobs/watch-alert-job.ts";
import { createMailer } from "./mail/outbox.ts";
import { devMailRoutes } from "./mail/routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { createAuthService } from "./modules/auth/service.ts";
import { SESSION_COOKIE } from "./modules/auth/sessions.ts";
import { createPaymentProvider } from "./modules/billing/provider.ts";
import { billingRoutes, staffVendorRoutes } from "./modules/billing/routes.ts";
import { createBillingService } from "./modules/billing/service.ts";
import { captchaRoutes } from "./modules/captcha/routes.ts";
import { createCaptchaService } from "./modules/captcha/service.ts";
import { checkRoutes } from "./modules/check/routes.ts";
import { createCheckService } from "./modules/check/service.ts";
import { dataSourcesOf } from "./modules/data-sources/registry.ts";
import { dataSourceRoutes } from "./modules/data-sources/routes.ts";
import { createDataSourceService } from "./modules/data-sources/service.ts";
import { embedRoutes } from "./modules/embed/routes.ts";
import { createEmbedService } from "./modules/embed/service.ts";
import { exploitationRoutes } from "./modules/exploitation/routes.ts";
import { createExploitationService } from "./modules/exploitation/service.ts";
import { createOsvExports } from "./modules/feeds/osv-export-files.ts";
import { feedRoutes, osvExportRoutes } from "./modules/feeds/routes.ts";
import { createFeedService } from "./modules/feeds/service.ts";
import { forwardingRoutes } from "./modules/forwarding/routes.ts";
import { createForwardingService } from "./modules/forwarding/service.ts";
import { createForwardingSink } from "./modules/forwarding/sink.ts";
import { productContactRoutes } from "./modules/product-contacts/routes.ts";
import { createProductContactService } from "./modules/product-contacts/service.ts";
import { productNoticeRoutes } from "./modules/product-notices/routes.ts";
import { createProductNoticeService } from "./modules/product-notices/service.ts";
import { productRoutes } from "./modules/products/routes.ts";
import { createFooterMetricsService } from "./modules/products/service.ts";
import { productClaimRoutes, programRoutes } from "./modules/programs/routes.ts";
import { createProgramService } from "./modules/programs/service.ts";
import { rankingRoutes } from "./modules/rankings/routes.ts";
import { createRankingService } from "./modules/rankings/service.ts";
import {
  createDatabaseAttachmentStore,
  createS3AttachmentStore,
  moveAttachmentsInto,
} from "./modules/reports/attachment-store.ts";
import { createUploadSpool, PARTIAL_UPLOAD_MAX_IDLE_MS } from "./modules/reports/attachments.ts";
import { cveRoutes } from "./modules/reports/cve-routes.ts";
import { duplicateRoutes } from "./modules/reports/duplicate-routes.ts";
import { pinPreviewRoutes } from "./modules/reports/pin-routes.ts";
import { createPreviewTokens } from "./modules/reports/preview-tokens.ts";
import { reportRoutes } from "./modules/reports/routes.ts";
import { createReportService } from "./modules/reports/service.ts";
import { researcherProfileRoutes } from "./modules/researchers/routes.ts";
import { createResearcherProfileService } from "./modules/researchers/service.ts";
import { searchRoutes } from "./modules/search/routes.ts";
import { createSearchService } from "./modules/search/service.ts";
import { systemRoutes } from "./modules/system/routes.ts";
import { teamRoutes } from "./modules/team/routes.ts";
import { createTeamService } from "./modules/team/service.ts";
import { vendorAccountRoutes } from "./modules/vendors/account-routes.ts";
import { createVendorAccountService } from "./modules/vendors/account-service.ts";
import { vulnerabilityRoutes } from "./modules/vulnerabilities/routes.ts";
import { createVulnerabilityService } from "./modules/vulnerabilities/service.ts";
import { watchlistRoutes } from "./modules/watchlists/routes.ts";
import { createWatchlistService } from "./modules/watchlists/service.ts";
import { watchlistWebhookRoutes } from "./modules/watchlists/webhook-routes.ts";
import { createWatchlistWebhookService } from "./modules/watchlists/webhooks.ts";
import { wellKnownRoutes } from "./modules/well-known/routes.ts";
import { createWellKnownService } from "./modules/well-known/service.ts";
import { utcDayOf } from "./modules/well-known/text-files.ts";

export interface AppOptions {
  config: Config;
  database: Database;
  /** Serve the React application too (main.ts); API-only when omitted (tests, `--api-only`). */
  web?: { mode: "production" | "development"; buildDir: string };
  logger?: FastifyServerOptions["logger"];
}

/** The composition root: every module is wired here, one line each. */
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
  const buildDir = web?.buildDir ?? DEFAULT_BUILD_DIR;
  // Marks the page renderer's own calls to the API, which the public API's rate limit does not count.
  const internalCallSecret = randomBytes(32).toString("base64url");
  const buildInfo = readBuildInfo(buildDir);
  const errorReporter = await createErrorReporter({ dsn: config.sentryDsn, release: buildInfo.id });
  app.addHook("onClose", async () => errorReporter.close());
  registerErrorHandlers(app, errorReporter);
  // The public database's reads, answered to server-rendered pages in-process (decision 038).
  const publicReads = createPublicReads({ log: app.log, errorReporter });
  app.decorate("publicRead", publicReads.read);
  // Before access control: a preflight is answered before anyone asks who is calling.
  registerPublicReadCors(app);
  registerSecurityHeaders(app, {
    captcha: config.captcha,
    sentryDsn: config.sentryDsn,
    appUrl: config.appUrl,
    contentSecurityPolicy: web?.mode !== "development",
  });
  const mailer = createMailer({
    database,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    siteName: config.site.name,
    onError: (error) => app.log.error({ err: error }, "mail delivery pass failed"),
  });
  const auth = createAuthService({
    database,
    mailer,
    appUrl: config.appUrl,
    rateLimitFactor: config.authRateLimitFactor,
  });
  registerAccessControl(app, {
    authenticator: auth,
    sessionCookie: SESSION_COOKIE,
    credentialCookies: [LINK_GRANT_COOKIE],
    csrfCookie: config.auth.csrf.cookie,
    csrfHeader: config.auth.csrf.header,
    mode: config.auth.mode,
  });
  // After access control (it finds the API key), before the response store (it answers in preHandler).
  const apiRateLimiter = createApiRateLimiter({
    sql: database.sql,
    ...config.apiRateLimit,
    apiKeyOf: (request) => request.apiKeyId,
    internalSecret: web ? internalCallSecret : undefined,
    log: app.log,
  });
  apiRateLimiter.register(app);
  apiRateLimiter.start();
  app.addHook("onClose", async () => apiRateLimiter.stop());
  registerIdempotency(app, { database });
  registerRouteDocs(app);
  mailer.start();
  auth.startHousekeeping((error) => app.log.error({ err: error }, "auth housekeeping failed"));
  app.addHook("onClose", async () => {
    auth.stopHousekeeping();
    await mailer.stop();
  });

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

  const dataVersion = await watchDataVersion(database);
  app.addHook("onClose", async () => dataVersion.stop());
  const footerMetrics = createFooterMetricsService({ database, dataVersion: dataVersion.current });
  const responseStore = createResponseStore(dataVersion.current);
  // A change to public data made here is seen by this instance's caches at once, not at the next poll.
  const onPublicChange = async () => {
    await dataVersion.refresh();
  };
  const programs = createProgramService({
    database,
    appUrl: config.appUrl,
    siteName: config.site.name,
    mailer,
    onPublicChange,
  });
  const vendorAccounts = createVendorAccountService({ database, onPublicChange });
  const researcherProfiles = createResearcherProfileService({ database, onPublicChange });
  const billing = createBillingService({
    database,
    provider: createPaymentProvider(config.billingProvider),
    mailer,
    appUrl: config.appUrl,
    siteName: config.site.name,
    onMailError: (error) => app.log.error({ err: error }, "plan change mail could not be queued"),
  });
  const captcha = createCaptchaService({
    mode: config.captcha,
    hmacKey: await signingKeyOf(database.sql, "captcha_hmac", config.captchaHmacKey),
    recaptcha: config.recaptcha,
  });
  const forwardingWorker = createForwardingWorker({
    database,
    mailer,
    appUrl: config.appUrl,
    ...config.forwarding,
    onError: (error) => app.log.error({ err: error }, "report forwarding pass failed"),
  });
  forwardingWorker.start();
  app.addHook("onClose", async () => forwardingWorker.stop());
  const forwarding = createForwardingService({
    database,
    mailer,
    appUrl: config.appUrl,
    allowLoopback: config.forwarding.allowLoopback,
    hitRateLimit: auth.queries.hitRateLimit,
    rateLimitFactor: config.authRateLimitFactor,
    onDeliveryQueued: () => void forwardingWorker.kick(),
  });
  // Attachments live where every instance reads them (decision 022); uploads are received locally.
  const uploads = createUploadSpool(config.attachmentsDir);
  const databaseStore = createDatabaseAttachmentStore(database.sql);
  const s3Store =
    config.attachmentsStore.kind === "s3"
      ? createS3AttachmentStore(config.attachmentsStore, database.sql)
      : null;
  if (s3Store) app.addHook("onClose", async () => s3Store.close());
  const attachments = s3Store ?? databaseStore;
  const attachmentStores = { database: databaseStore, ...(s3Store && { s3: s3Store }) };
  // The files of an installation from before (ATTACHMENTS_DIR), or the database's when S3 was
  // configured since, move into the store; a failure is logged and tried again at the next start.
  await moveAttachmentsInto(attachments, { database, spool: uploads, sources: attachmentStores }).then(
    ({ moved, unreadable }) => {
      if (moved > 0) app.log.info({ moved, store: attachments.kind }, "attachments moved into the store");
      if (unreadable > 0)
        app.log.warn(
          { unreadable },
          "attachments missing or damaged where they were: left there, answered 404",
        );
    },
    (error: unknown) => app.log.error({ err: error }, "moving attachments into the store failed"),
  );
  // Partial uploads of a process killed mid-upload are removed at start (and then now and again),
  // and so are objects an instance put into S3 before it was killed, without their row.
  const onSweepError = (error: unknown) => app.log.error({ err: error }, "sweeping partial uploads failed");
  const uploadSweeper = await uploads.startSweeping(onSweepError);
  app.addHook("onClose", async () => uploadSweeper.stop());
  if (s3Store) {
    const sweepObjects = () => void s3Store.sweep(PARTIAL_UPLOAD_MAX_IDLE_MS).catch(onSweepError);
    sweepObjects();
    const objectSweeper = setInterval(sweepObjects, PARTIAL_UPLOAD_MAX_IDLE_MS);
    objectSweeper.unref();
    app.addHook("onClose", async () => clearInterval(objectSweeper));
  }
  const previewTokens = createPreviewTokens(
    await signingKeyOf(database.sql, "preview_token", config.previewTokenKey),
  );
  const reportEvents = createForwardingSink({
    appUrl: config.appUrl,
    onRecorded: () => forwardingWorker.kickSoon(),
  });
  const onReportMailError = (error: unknown) =>
    app.log.error({ err: error }, "report mail could not be queued");
  const reports = createReportService({
    database,
    mailer,
    previewTokens,
    uploads,
    attachments,
    attachmentStores,
    appUrl: config.appUrl,
    captcha,
    hitRateLimit: auth.queries.hitRateLimit,
    rateLimitFactor: config.authRateLimitFactor,
    sendMagicLink: auth.requestMagicLink,
    onPublicChange,
    onMailError: onReportMailError,
    events: reportEvents,
  });
  const deadlineJob = createDeadlineJob({
    database,
    mailer,
    previewTokens,
    appUrl: config.appUrl,
    events: reportEvents,
    onMailError: onReportMailError,
  });
  deadlineJob.start(config.deadlineJobIntervalSeconds, (error) =>
    app.log.error({ err: error }, "report deadline job failed"),
  );
  app.addHook("onClose", async () => deadlineJob.stop());
  const exploitationJob = createExploitationJob({
    database,
    mailer,
    appUrl: config.appUrl,
    onMailError: onReportMailError,
  });
  exploitationJob.start(config.deadlineJobIntervalSeconds, (error) =>
    app.log.error({ err: error }, "CRA reminder job failed"),
  );
  app.addHook("onClose", async () => exploitationJob.stop());
  const watchAlertJob = createWatchAlertJob({
    database,
    mailer,
    appUrl: config.appUrl,
    onDeliveryQueued: () => void forwardingWorker.kick(),
  });
  watchAlertJob.start(config.watchAlertIntervalSeconds, (error) =>
    app.log.error({ err: error }, "watchlist alert job failed"),
  );
  app.addHook("onClose", async () => watchAlertJob.stop());
  // Upstream feeds keep the records current (decision 035): once per interval across all instances.
  const dataSources = createDataSourceService({
    database,
    sources: dataSourcesOf(config),
    intervalSeconds: config.dataSources.intervalSeconds,
    onPublicChange,
    log: app.log,
  });
  const dataSyncJob = createDataSyncJob(dataSources);
  if (dataSources.hasConfiguredSources())
    dataSyncJob.start(config.dataSources.intervalSeconds, (error) =>
      app.log.error({ err: error }, "data source sync failed"),
    );
  app.addHook("onClose", async () => dataSyncJob.stop());
  const vulnerabilities = createVulnerabilityService({
    database,
    appUrl: config.appUrl,
    siteName: config.site.name,
    dataVersion: dataVersion.current,
  });
  const rankings = createRankingService({
    database,
    appUrl: config.appUrl,
    dataVersion: dataVersion.current,
  });
  const search = createSearchService({
    database,
    appUrl: config.appUrl,
    databaseCounts: rankings.getDatabaseCounts,
    dataVersion: dataVersion.current,
    productCounters: vulnerabilities.productCounters,
  });
  const check = createCheckService({ database, appUrl: config.appUrl, dataVersion: dataVersion.current });
  const feeds = createFeedService({ database, appUrl: config.appUrl });
  const wellKnown = createWellKnownService({
    database,
    site: config.site,
    appUrl: config.appUrl,
    securityContacts: config.securityContacts,
    dataVersion: dataVersion.current,
  });

  const putRoutes = collectPutRoutes(app);
  await app.register(
    async (api) => {
      rejectMalformedInput(api);
      await api.register(productRoutes, { footerMetrics, responseStore, reads: publicReads });
      await api.register(programRoutes, { programs });
      await api.register(productClaimRoutes, { programs });
      await api.register(productNoticeRoutes, {
        notices: createProductNoticeService({
          database,
          mailer,
          appUrl: config.appUrl,
          onDeliveryQueued: () => forwardingWorker.kickSoon(),
        }),
      });
      await api.register(productContactRoutes, { contacts: createProductContactService({ database }) });
      await api.register(vendorAccountRoutes, { accounts: vendorAccounts });
      await api.register(teamRoutes, {
        team: createTeamService({ database, mailer, auth, appUrl: config.appUrl }),
        secureCookies: config.appUrl.startsWith("https:"),
      });
      await api.register(billingRoutes, { billing });
      await api.register(staffVendorRoutes, { billing });
      await api.register(researcherProfileRoutes, { profiles: researcherProfiles });
      await api.register(authRoutes, {
        auth,
        siteName: config.site.name,
        csrfCookie: config.auth.csrf.cookie,
        secureCookies: config.appUrl.startsWith("https:"),
      });
      await api.register(devMailRoutes, { mailer, enabled: config.devMailbox });
      await api.register(captchaRoutes, { captcha });
      await api.register(embedRoutes, { embed: createEmbedService({ database }) });
      await api.register(reportRoutes, { reports });
      await api.register(cveRoutes, { reports });
      await api.register(duplicateRoutes, { reports });
      await api.register(exploitationRoutes, {
        exploitation: createExploitationService({
          database,
          appUrl: config.appUrl,
          siteName: config.site.name,
        }),
      });
      await api.register(pinPreviewRoutes, {
        reports,
        secureCookies: config.appUrl.startsWith("https:"),
        visitorClientInfo: createVisitorClientInfo(web ? internalCallSecret : undefined),
      });
      await api.register(forwardingRoutes, { forwarding });
      await api.register(searchRoutes, { search, responseStore, reads: publicReads });
      await api.register(vulnerabilityRoutes, { vulnerabilities, responseStore, reads: publicReads });
      // Built per data version into this instance's local directory, served as files (decision 027).
      const osvDirectory = join(config.exportsDir, "osv");
      const exports = createOsvExports({
        feeds,
        sql: database.sql,
        directory: osvDirectory,
        currentVersion: dataVersion.current,
        log: app.log,
      });
      await api.register(osvExportRoutes, { exports, feeds });
      await api.register(rankingRoutes, { rankings, responseStore, reads: publicReads });
      await api.register(checkRoutes, { check });
      await api.register(dataSourceRoutes, { dataSources });
      await api.register(watchlistRoutes, {
        watchlists: createWatchlistService({ database, check, appUrl: config.appUrl }),
      });
      await api.register(watchlistWebhookRoutes, {
        webhooks: createWatchlistWebhookService({
          database,
          appUrl: config.appUrl,
          allowLoopback: config.forwarding.allowLoopback,
          onDeliveryQueued: () => void forwardingWorker.kick(),
        }),
      });
      api.get("/openapi.json", { schema: { hide: true }, config: publicData }, () => app.swagger());
      // Unknown API paths answer JSON, not the web app's HTML 404: to every key too.
      api.all(
        "/*",
        { schema: { hide: true }, config: { access: "public", apiKeyScopes: API_KEY_SCOPES } },
        (_request, reply) => reply.callNotFound(),
      );
    },
    { prefix: "/api" },
  );
  await app.register(methodOverrideRoutes, { routes: putRoutes });
  await app.register(systemRoutes, { buildInfo, database });
  await app.register(feedRoutes, { feeds, responseStore });
  // A store of their own (decision 026): security.txt's Expires moves each UTC day, and the sitemaps
  // (~9 MB a file of 50,000 URLs, ~64 MB with their compressed forms at 250,000 records) must not push
  // the hot public answers out of the main store.
  await app.register(wellKnownRoutes, {
    wellKnown,
    responseStore: createResponseStore(
      () => `${dataVersion.current()} ${utcDayOf(new Date())}`,
      64 * 1024 * 1024,
    ),
  });

  if (web) {
    await registerWeb(app, {
      ...web,
      publicConfig: publicConfigOf(config, buildInfo.id),
      pageStore: createResponseStore(() => `${buildInfo.id} ${dataVersion.current()}`),
      dataVersion: dataVersion.current,
      sessionCookie: SESSION_COOKIE,
      errorReporter,
      publicRead: publicReads.read,
      internalCallHeaders: { [INTERNAL_CALL_HEADER]: internalCallSecret },
    });
  }

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
