import { API_KEY_SCOPES } from "@pressguard/domain";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import { publicData } from "../http/access.ts";
import type { PageReads } from "../http/page-reads.ts";
import { rejectMalformedInput } from "../http/reject-malformed-input.ts";
import { createVisitorClientInfo } from "../http/visitor-address.ts";
import { devMailRoutes } from "../mail/routes.ts";
import { authRoutes } from "../modules/auth/routes.ts";
import { billingRoutes, staffVendorRoutes } from "../modules/billing/routes.ts";
import { captchaRoutes } from "../modules/captcha/routes.ts";
import { checkRoutes } from "../modules/check/routes.ts";
import { dataSourceRoutes } from "../modules/data-sources/routes.ts";
import { embedRoutes } from "../modules/embed/routes.ts";
import { exploitationRoutes } from "../modules/exploitation/routes.ts";
import { osvExportRoutes } from "../modules/feeds/routes.ts";
import { forwardingRoutes } from "../modules/forwarding/routes.ts";
import { productContactRoutes } from "../modules/product-contacts/routes.ts";
import { productNoticeRoutes } from "../modules/product-notices/routes.ts";
import { productRoutes } from "../modules/products/routes.ts";
import { productClaimRoutes, programRoutes } from "../modules/programs/routes.ts";
import { rankingRoutes } from "../modules/rankings/routes.ts";
import { cveRoutes } from "../modules/reports/cve-routes.ts";
import { duplicateRoutes } from "../modules/reports/duplicate-routes.ts";
import { pinPreviewRoutes } from "../modules/reports/pin-routes.ts";
import { reportRoutes } from "../modules/reports/routes.ts";
import { researcherProfileRoutes } from "../modules/researchers/routes.ts";
import { searchRoutes } from "../modules/search/routes.ts";
import { teamRoutes } from "../modules/team/routes.ts";
import { vendorAccountRoutes } from "../modules/vendors/account-routes.ts";
import { vulnerabilityRoutes } from "../modules/vulnerabilities/routes.ts";
import { watchlistRoutes } from "../modules/watchlists/routes.ts";
import { watchlistWebhookRoutes } from "../modules/watchlists/webhook-routes.ts";
import type { Services } from "./services.ts";

export interface ApiRouteOptions {
  config: Config;
  services: Services;
  reads: PageReads;
  /** The renderer's secret, when pages are served: its PIN previews carry the visitor's address. */
  internalCallSecret: string | undefined;
  /** The OpenAPI document (`app.swagger()` of the root app). */
  openApi: () => unknown;
}

/** Every module's API routes, registered under `/api` (one line a module). */
export async function apiRoutes(api: FastifyInstance, options: ApiRouteOptions) {
  const { config, services: s, reads } = options;
  const { responseStore } = s;
  const secureCookies = config.appUrl.startsWith("https:");
  rejectMalformedInput(api);
  await api.register(productRoutes, { footerMetrics: s.footerMetrics, responseStore, reads });
  await api.register(programRoutes, { programs: s.programs, reads });
  await api.register(productClaimRoutes, { programs: s.programs });
  await api.register(productNoticeRoutes, { notices: s.productNotices });
  await api.register(productContactRoutes, { contacts: s.productContacts });
  await api.register(vendorAccountRoutes, { accounts: s.vendorAccounts });
  await api.register(teamRoutes, { team: s.team, secureCookies, reads });
  await api.register(billingRoutes, { billing: s.billing, reads });
  await api.register(staffVendorRoutes, { billing: s.billing });
  await api.register(researcherProfileRoutes, { profiles: s.researcherProfiles });
  await api.register(authRoutes, {
    auth: s.auth,
    siteName: config.site.name,
    csrfCookie: config.auth.csrf.cookie,
    secureCookies,
    reads,
  });
  await api.register(devMailRoutes, { mailer: s.mailer, enabled: config.devMailbox, reads });
  await api.register(captchaRoutes, { captcha: s.captcha });
  await api.register(embedRoutes, { embed: s.embed, reads });
  await api.register(reportRoutes, { reports: s.reports, reads });
  await api.register(cveRoutes, { reports: s.reports });
  await api.register(duplicateRoutes, { reports: s.reports });
  await api.register(exploitationRoutes, { exploitation: s.exploitation });
  await api.register(pinPreviewRoutes, {
    reports: s.reports,
    reads,
    secureCookies,
    visitorClientInfo: createVisitorClientInfo(options.internalCallSecret),
  });
  await api.register(forwardingRoutes, { forwarding: s.forwarding });
  await api.register(searchRoutes, { search: s.search, responseStore, reads });
  await api.register(vulnerabilityRoutes, { vulnerabilities: s.vulnerabilities, responseStore, reads });
  await api.register(osvExportRoutes, { exports: s.osvExports });
  await api.register(rankingRoutes, { rankings: s.rankings, responseStore, reads });
  await api.register(checkRoutes, { check: s.check });
  await api.register(dataSourceRoutes, { dataSources: s.dataSources });
  await api.register(watchlistRoutes, { watchlists: s.watchlists });
  await api.register(watchlistWebhookRoutes, { webhooks: s.watchlistWebhooks });
  api.get("/openapi.json", { schema: { hide: true }, config: publicData }, () => options.openApi());
  // Unknown API paths answer JSON, not the web app's HTML 404: to every key too.
  api.all(
    "/*",
    { schema: { hide: true }, config: { access: "public", apiKeyScopes: API_KEY_SCOPES } },
    (_request, reply) => reply.callNotFound(),
  );
}
