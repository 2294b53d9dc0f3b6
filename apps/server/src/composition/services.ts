import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { watchDataVersion } from "../db/data-version.ts";
import { signingKeyOf } from "../db/signing-keys.ts";
import { createResponseStore } from "../http/http-cache.ts";
import { createDataSyncJob } from "../jobs/data-sync-job.ts";
import { createDeadlineJob } from "../jobs/deadline-job.ts";
import { createExploitationJob } from "../jobs/exploitation-job.ts";
import { createForwardingWorker } from "../jobs/forwarding-worker.ts";
import { createWatchAlertJob } from "../jobs/watch-alert-job.ts";
import { createMailer } from "../mail/outbox.ts";
import { createAuthService } from "../modules/auth/service.ts";
import { createPaymentProvider } from "../modules/billing/provider.ts";
import { createBillingService } from "../modules/billing/service.ts";
import { createCaptchaService } from "../modules/captcha/service.ts";
import { createCheckService } from "../modules/check/service.ts";
import { dataSourcesOf } from "../modules/data-sources/registry.ts";
import { createDataSourceService } from "../modules/data-sources/service.ts";
import { createEmbedService } from "../modules/embed/service.ts";
import { createExploitationService } from "../modules/exploitation/service.ts";
import { createOsvExports, osvExportWriterOf } from "../modules/feeds/osv-export-files.ts";
import { createFeedService } from "../modules/feeds/service.ts";
import { createForwardingService } from "../modules/forwarding/service.ts";
import { createForwardingSink } from "../modules/forwarding/sink.ts";
import { createTargetService } from "../modules/forwarding/target-service.ts";
import { createProductContactService } from "../modules/product-contacts/service.ts";
import { createProductNoticeService } from "../modules/product-notices/service.ts";
import { createFooterMetricsService } from "../modules/products/service.ts";
import { createProgramService } from "../modules/programs/service.ts";
import { createRankingService } from "../modules/rankings/service.ts";
import {
  createDatabaseAttachmentStore,
  createS3AttachmentStore,
} from "../modules/reports/attachment-store.ts";
import { createUploadSpool } from "../modules/reports/attachments.ts";
import { createPreviewTokens } from "../modules/reports/preview-tokens.ts";
import { createReportService } from "../modules/reports/service.ts";
import { createResearcherProfileService } from "../modules/researchers/service.ts";
import { createSearchService } from "../modules/search/service.ts";
import { createTeamService } from "../modules/team/service.ts";
import { createVendorAccountService } from "../modules/vendors/account-service.ts";
import { createVulnerabilityService } from "../modules/vulnerabilities/service.ts";
import { createWatchlistService } from "../modules/watchlists/service.ts";
import { createWatchlistWebhookService } from "../modules/watchlists/webhooks.ts";
import { createWellKnownService } from "../modules/well-known/service.ts";

export interface ServiceOptions {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
}

/**
 * Every service, store and job of the server, built once and wired to each other; nothing here starts
 * (background.ts and app.ts start the jobs and register the routes).
 */
export async function buildServices({ config, database, log }: ServiceOptions) {
  const logged = (message: string) => (error: unknown) => log.error({ err: error }, message);
  const { appUrl } = config;
  const siteName = config.site.name;
  const mailer = createMailer({
    database,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    siteName,
    onError: logged("mail delivery pass failed"),
  });
  const auth = createAuthService({ database, mailer, appUrl, rateLimitFactor: config.authRateLimitFactor });
  const dataVersion = await watchDataVersion(database);
  // A change to public data made here is seen by this instance's caches at once, not at the next poll.
  const onPublicChange = async () => {
    await dataVersion.refresh();
  };
  const forwardingWorker = createForwardingWorker({
    database,
    mailer,
    appUrl,
    ...config.forwarding,
    onError: logged("report forwarding pass failed"),
  });
  const kickForwarding = () => void forwardingWorker.kick();
  // Attachments live where every instance reads them (decision 022); uploads are received locally.
  const uploads = createUploadSpool(config.attachmentsDir);
  const databaseStore = createDatabaseAttachmentStore(database.sql);
  const s3Store =
    config.attachmentsStore.kind === "s3"
      ? createS3AttachmentStore(config.attachmentsStore, database.sql)
      : null;
  const attachmentStores = { database: databaseStore, ...(s3Store && { s3: s3Store }) };
  const previewTokens = createPreviewTokens(
    await signingKeyOf(database.sql, "preview_token", config.previewTokenKey),
  );
  const reportEvents = createForwardingSink({ appUrl, onRecorded: () => forwardingWorker.kickSoon() });
  const onReportMailError = logged("report mail could not be queued");
  const captcha = createCaptchaService({
    mode: config.captcha,
    hmacKey: await signingKeyOf(database.sql, "captcha_hmac", config.captchaHmacKey),
    recaptcha: config.recaptcha,
  });
  const dataSources = createDataSourceService({
    database,
    sources: dataSourcesOf(config),
    intervalSeconds: config.dataSources.intervalSeconds,
    onPublicChange,
    log,
  });
  const vulnerabilities = createVulnerabilityService({
    database,
    appUrl,
    siteName,
    dataVersion: dataVersion.current,
  });
  const rankings = createRankingService({ database, appUrl, dataVersion: dataVersion.current });
  const check = createCheckService({ database, appUrl, dataVersion: dataVersion.current });
  const feeds = createFeedService({ database, appUrl });
  const billing = createBillingService({
    database,
    provider: createPaymentProvider(config.billingProvider),
    mailer,
    appUrl,
    siteName,
    onMailError: logged("plan change mail could not be queued"),
  });
  return {
    mailer,
    auth,
    dataVersion,
    onPublicChange,
    responseStore: createResponseStore(dataVersion.current),
    footerMetrics: createFooterMetricsService({ database, dataVersion: dataVersion.current }),
    programs: createProgramService({ database, appUrl, siteName, mailer, onPublicChange }),
    vendorAccounts: createVendorAccountService({ database, onPublicChange }),
    researcherProfiles: createResearcherProfileService({ database, onPublicChange }),
    billing,
    captcha,
    forwardingWorker,
    forwarding: createForwardingService({
      database,
      mailer,
      appUrl,
      allowLoopback: config.forwarding.allowLoopback,
      hitRateLimit: auth.queries.hitRateLimit,
      rateLimitFactor: config.authRateLimitFactor,
      onDeliveryQueued: kickForwarding,
    }),
    uploads,
    s3Store,
    attachments: s3Store ?? databaseStore,
    attachmentStores,
    previewTokens,
    reports: createReportService({
      database,
      mailer,
      previewTokens,
      uploads,
      attachments: s3Store ?? databaseStore,
      attachmentStores,
      appUrl,
      captcha,
      hitRateLimit: auth.queries.hitRateLimit,
      rateLimitFactor: config.authRateLimitFactor,
      sendMagicLink: auth.requestMagicLink,
      onPublicChange,
      onMailError: onReportMailError,
      events: reportEvents,
    }),
    deadlineJob: createDeadlineJob({
      database,
      mailer,
      previewTokens,
      appUrl,
      events: reportEvents,
      onMailError: onReportMailError,
    }),
    exploitationJob: createExploitationJob({ database, mailer, appUrl, onMailError: onReportMailError }),
    watchAlertJob: createWatchAlertJob({ database, mailer, appUrl, onDeliveryQueued: kickForwarding }),
    dataSources,
    dataSyncJob: createDataSyncJob(dataSources),
    vulnerabilities,
    rankings,
    search: createSearchService({
      database,
      appUrl,
      databaseCounts: rankings.getDatabaseCounts,
      dataVersion: dataVersion.current,
      productCounters: vulnerabilities.productCounters,
    }),
    check,
    feeds,
    wellKnown: createWellKnownService({
      database,
      site: config.site,
      appUrl,
      securityContacts: config.securityContacts,
      dataVersion: dataVersion.current,
    }),
    productNotices: createProductNoticeService({
      database,
      mailer,
      appUrl,
      onDeliveryQueued: () => forwardingWorker.kickSoon(),
    }),
    productContacts: createProductContactService({ database }),
    team: createTeamService({ database, mailer, auth, appUrl }),
    embed: createEmbedService({ database }),
    exploitation: createExploitationService({ database, appUrl, siteName }),
    watchlists: createWatchlistService({ database, check, appUrl }),
    watchlistWebhooks: createWatchlistWebhookService({
      database,
      appUrl,
      allowLoopback: config.forwarding.allowLoopback,
      targets: createTargetService({ database }),
      onDeliveryQueued: kickForwarding,
    }),
    // Built per data version into this instance's local directory, served as files (decision 027).
    osvExports: createOsvExports({
      write: osvExportWriterOf(database, feeds, appUrl),
      sql: database.sql,
      directory: join(config.exportsDir, "osv"),
      currentVersion: dataVersion.current,
      log,
    }),
  };
}

export type Services = Awaited<ReturnType<typeof buildServices>>;
