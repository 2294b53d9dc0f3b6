import fastifyMultipart from "@fastify/multipart";
import {
  CommentSubmission,
  LINK_GRANT_COOKIE,
  LinkGrant,
  ReportAttachment,
  ReportDetail,
  ReportPage,
  SubmittedReport,
  VendorFix,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { clientInfoOf, signedInCaller } from "../../http/access.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { pageRequest } from "../../http/pagination.ts";
import {
  DOWNLOAD_RESPONSE,
  filePartOf,
  sendDownload,
  UPLOAD_OPTIONS,
  uploadError,
} from "./attachment-http.ts";
import { reportIdOf } from "./report-context.ts";
import {
  AttachmentParams,
  ReportIdParams,
  ReportReadQuery,
  ResearcherReportsQuery,
  StaffReportsQuery,
  SubmissionBody,
  TransitionBody,
  VendorReportsQuery,
} from "./schemas.ts";
import type { ReportService } from "./service.ts";

/**
 * The preview token of a call from an e-mailed link's holder: the link's `?token=` (API clients,
 * and a link the web page could not exchange), else the grant the web page keeps for it in an
 * HttpOnly cookie once it took the token out of its URL (issue 15, decision 021).
 */
function linkTokenOf(request: {
  query: { token?: string };
  cookies: Readonly<Record<string, string | undefined>>;
}): string | undefined {
  return request.query.token ?? request.cookies[LINK_GRANT_COOKIE] ?? undefined;
}

const tags = ["reports"];

/**
 * The API key scopes of the routes a signed-in caller shares with a link's holder or a signed-out
 * reporter (decision 028, issue 38): a key acts there as its owner, so only for the side its scopes
 * name, and is never taken for the signed-out caller.
 */
const RESEARCHER_KEY = ["researcher"] as const;
const VENDOR_KEY = ["vendor"] as const;
const READER_KEY = ["researcher", "vendor"] as const;

/**
 * The disclosure workflow's API (issue 7, decision 008); ownership is checked in the service. The PIN
 * preview's routes are pin-routes.ts.
 */
export const reportRoutes: FastifyPluginAsyncZod<{
  reports: ReportService;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
}> = async (app, { reports, reads }) => {
  app.post(
    "/reports",
    {
      schema: {
        tags,
        summary: "Submits a report: signed in, or signed out with an e-mail and a solved captcha",
        body: SubmissionBody,
        response: { 201: SubmittedReport },
      },
      // A signed-out report acts on nobody's behalf and carries a captcha; the vendor embed posts
      // from inside another site's frame, where the Lax CSRF cookie is not sent. With a session
      // cookie the CSRF pair is still required.
      // A retry with the same Idempotency-Key never files the report twice (the key is stored with it).
      config: { access: "public", apiKeyScopes: RESEARCHER_KEY, csrfOnlyWithSession: true, idempotent: true },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await reports.submitReport(request.auth, request.body, clientInfoOf(request), request.idempotency),
        ),
  );

  reads.get(
    app,
    "/reports/:id",
    {
      schema: {
        tags,
        summary:
          "A report, for its researcher, staff, or the owning vendor once validated; or for the holder of an e-mail link's preview token (`?token=`)",
        params: ReportIdParams,
        querystring: ReportReadQuery,
        response: { 200: ReportDetail },
      },
      // Signed out, only with a token (401 without one); checked in the service.
      config: { access: "public", apiKeyScopes: READER_KEY },
    },
    (request) => reports.getReport(request.auth, reportIdOf(request.params.id), linkTokenOf(request)),
  );

  reads.get(
    app,
    "/reports/:id/link-grant",
    {
      schema: {
        tags,
        summary:
          "Exchanges an e-mail link's preview token (`?token=`) for a grant of the same audience that lives an hour at most (the web pages keep it in an HttpOnly cookie)",
        params: ReportIdParams,
        querystring: z.strictObject({ token: z.string().min(1).max(512) }),
        response: { 200: LinkGrant },
      },
      config: { access: "public" },
      headers: { "cache-control": "private, no-store" },
    },
    (request) => reports.linkGrant(reportIdOf(request.params.id), request.query.token),
  );

  await app.register(fastifyMultipart, UPLOAD_OPTIONS);

  app.post(
    "/reports/:id/attachments",
    {
      schema: {
        tags,
        summary:
          "Attaches a proof-of-concept file (multipart field `file`; 20 MB, 5 per report, accepted file kinds): its researcher or staff, or the form right after submitting with the report's `upload_token` as `?token=`",
        consumes: ["multipart/form-data"],
        params: ReportIdParams,
        querystring: ReportReadQuery,
        response: { 201: ReportAttachment },
      },
      // Signed out only with the new report's upload token (401 without one); checked in the service.
      config: { access: "public", apiKeyScopes: RESEARCHER_KEY, csrfOnlyWithSession: true, idempotent: true },
    },
    async (request, reply) => {
      const token = request.query.token;
      const auth = token === undefined ? signedInCaller(request) : request.auth;
      const id = reportIdOf(request.params.id);
      const part = await filePartOf(request);
      const stored = await reports
        .addAttachment(auth, id, part, token, request.idempotency)
        .catch(uploadError);
      return reply.status(201).send(stored);
    },
  );

  app.post(
    "/reports/:id/fix-attachments",
    {
      schema: {
        tags,
        summary:
          "Attaches a fix as a zip (multipart field `file`; .zip with the zip signature, 20 MB, 5 per report) while the report awaits a fix: the owning vendor, signed in or with its e-mailed link's token as `?token=`",
        consumes: ["multipart/form-data"],
        params: ReportIdParams,
        querystring: ReportReadQuery,
        response: { 201: ReportAttachment },
      },
      // Signed out only with the vendor's preview token (401 without one); checked in the service
      // before the body is read.
      config: { access: "public", apiKeyScopes: VENDOR_KEY, csrfOnlyWithSession: true, idempotent: true },
    },
    async (request, reply) => {
      const uploader = await reports.requireFixUploader(
        request.auth,
        reportIdOf(request.params.id),
        linkTokenOf(request),
      );
      const part = await filePartOf(request);
      return reply
        .status(201)
        .send(await reports.addFixAttachment(uploader, part, request.idempotency).catch(uploadError));
    },
  );

  app.get(
    "/reports/:id/attachments/:attachmentId",
    {
      schema: {
        tags,
        summary: "Downloads an attachment (as a download, never inline), for whoever may read the report",
        params: AttachmentParams,
        querystring: ReportReadQuery,
        response: DOWNLOAD_RESPONSE,
      },
      config: { access: "public", apiKeyScopes: READER_KEY },
    },
    async (request, reply) =>
      sendDownload(
        reply,
        await reports.openAttachment(
          request.auth,
          reportIdOf(request.params.id),
          request.params.attachmentId,
          {
            token: linkTokenOf(request),
          },
        ),
      ),
  );

  app.post(
    "/reports/:id/comments",
    {
      schema: {
        tags,
        summary:
          "Comments on a report (researcher, owning vendor, staff; staff-only comments for staff), or as the holder of an e-mail link's preview token (`?token=`)",
        params: ReportIdParams,
        querystring: ReportReadQuery,
        body: CommentSubmission,
        response: { 201: ReportDetail },
      },
      // Signed out, only with a token (401 without one); checked in the service. A token holder
      // without a session sends no cookie, so no CSRF pair is needed; with a session it is.
      config: { access: "public", apiKeyScopes: READER_KEY, csrfOnlyWithSession: true, idempotent: true },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await reports.addComment(
            request.auth,
            reportIdOf(request.params.id),
            request.body,
            linkTokenOf(request),
            request.idempotency,
          ),
        ),
  );

  reads.get(
    app,
    "/researcher/reports",
    {
      schema: {
        tags,
        summary: "The signed-in researcher's reports by profile tab",
        querystring: ResearcherReportsQuery,
        response: { 200: ReportPage },
      },
      config: { access: "researcher" },
    },
    (request) =>
      reports.listResearcherReports(
        signedInCaller(request),
        request.query.tab,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/vendor/reports",
    {
      schema: {
        tags,
        summary: "Reports on the vendor's products by report tab (from validation on)",
        querystring: VendorReportsQuery,
        response: { 200: ReportPage },
      },
      config: { access: "vendor" },
    },
    (request) =>
      reports.listVendorReports(
        signedInCaller(request),
        request.query.tab,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.post(
    "/vendor/reports/:id/fix",
    {
      schema: {
        tags,
        summary:
          "The owning vendor submits a fix (fixed version, optional notes and link): awaiting_fix → fix_pending; signed in, or with its e-mailed link's token as `?token=`",
        params: ReportIdParams,
        querystring: ReportReadQuery,
        body: VendorFix,
        response: { 200: ReportDetail },
      },
      // Signed out only with the vendor's preview token (401 without one); checked in the service.
      config: { access: "public", apiKeyScopes: VENDOR_KEY, csrfOnlyWithSession: true },
    },
    (request) =>
      reports.submitFix(request.auth, reportIdOf(request.params.id), request.body, linkTokenOf(request)),
  );

  const staffTags = ["staff"];

  app.get(
    "/staff/reports",
    {
      schema: {
        tags: staffTags,
        summary: "The triage queue: reports by status, newest first",
        querystring: StaffReportsQuery,
        response: { 200: ReportPage },
      },
      config: { access: "staff" },
    },
    (request) =>
      reports.listStaffReports(
        {
          status: request.query.status,
          deadlinePassed: request.query.deadline_passed === "true",
          noVendorContact: request.query.no_vendor_contact === "true",
          cveRequested: request.query.cve_requested === "true",
        },
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/staff/reports/:id",
    {
      schema: {
        tags: staffTags,
        summary: "A report with its full timeline and every comment",
        params: ReportIdParams,
        response: { 200: ReportDetail },
      },
      config: { access: "staff" },
    },
    (request) => reports.getStaffReport(reportIdOf(request.params.id)),
  );

  app.post(
    "/staff/reports/:id/transitions",
    {
      schema: {
        tags: staffTags,
        summary: "Moves a report through the lifecycle (409 when the action is not allowed from its state)",
        params: ReportIdParams,
        body: TransitionBody,
        response: { 200: ReportDetail },
      },
      config: { access: "staff" },
    },
    (request) => reports.transition(signedInCaller(request), reportIdOf(request.params.id), request.body),
  );
};
