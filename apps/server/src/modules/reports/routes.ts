import fastifyMultipart from "@fastify/multipart";
import {
  LINK_GRANT_COOKIE,
  PinAccepted,
  ReportAttachment,
  ReportDetail,
  ReportPage,
  SubmittedReport,
} from "@pressguard/domain";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { clientInfoOf, signedInCaller } from "../../http/access.ts";
import { pageRequest } from "../../http/pagination.ts";
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES, contentDispositionOf } from "./attachments.ts";
import { PIN_CREDENTIAL_SECONDS } from "./preview-tokens.ts";
import { reportIdOf } from "./report-context.ts";
import {
  AttachmentParams,
  CommentBody,
  PinBody,
  PinPatchBody,
  ReportIdParams,
  ReportReadQuery,
  ReportSubmissionBody,
  ResearcherReportsQuery,
  StaffReportsQuery,
  TransitionBody,
  VendorFixBody,
  VendorReportsQuery,
} from "./schemas.ts";
import type { ReportService } from "./service.ts";

/**
 * The preview token of a call from an e-mailed link's holder: the link's `?token=` (API clients,
 * and a link the web page could not exchange), else the grant the web page keeps for it in an
 * HttpOnly cookie once it took the token out of its URL (issue 15, decision 021).
 */
function linkTokenOf(request: FastifyRequest<{ Querystring: { token?: string } }>): string | undefined {
  return request.query.token ?? request.cookies[LINK_GRANT_COOKIE] ?? undefined;
}

/**
 * The PIN preview credential: an HttpOnly cookie holding a signed pin_contact token, scoped by its
 * path to the one report's preview API (`/api/report-previews/{id}`), valid PIN_CREDENTIAL_SECONDS.
 */
const PIN_PREVIEW_COOKIE = "pressguard_report_preview";

const tags = ["reports"];

/** A stored attachment as a download: never rendered by the browser, never sniffed. */
function sendDownload(
  reply: FastifyReply,
  file: { filename: string; size: number; stream: NodeJS.ReadableStream },
) {
  return reply
    .header("content-type", "application/octet-stream")
    .header("content-disposition", contentDispositionOf(file.filename))
    .header("content-length", String(file.size))
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "private, no-store")
    .header("content-security-policy", "default-src 'none'; sandbox")
    .send(file.stream);
}

function multipartError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE")
    return new AppError("payload_too_large", { message: ATTACHMENT_MESSAGES.tooLarge });
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
    return new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.field] } });
  return new AppError("bad_request", { message: "The upload could not be read as multipart/form-data." });
}

/** The one file of a multipart upload (field `file`); 415/422/413 for anything else. */
async function filePartOf(request: FastifyRequest) {
  if (!request.isMultipart())
    throw new AppError("unsupported_media_type", { message: ATTACHMENT_MESSAGES.field });
  const part = await request.file().catch((error: unknown) => {
    throw multipartError(error);
  });
  if (part?.fieldname !== "file")
    throw new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.field] } });
  return { filename: part.filename, mimetype: part.mimetype, file: part.file };
}

/** Errors of the store while it streams a part (a cut connection, a part over the limit). */
function uploadError(error: unknown): never {
  throw error instanceof AppError ? error : multipartError(error);
}

/** The disclosure workflow's API (issue 7, decision 008); ownership is checked in the service. */
export const reportRoutes: FastifyPluginAsyncZod<{ reports: ReportService; secureCookies: boolean }> = async (
  app,
  { reports, secureCookies },
) => {
  app.post(
    "/reports",
    {
      schema: {
        tags,
        summary: "Submits a report: signed in, or signed out with an e-mail and a solved captcha",
        body: ReportSubmissionBody,
        response: { 201: SubmittedReport },
      },
      // A signed-out report acts on nobody's behalf and carries a captcha; the vendor embed posts
      // from inside another site's frame, where the Lax CSRF cookie is not sent. With a session
      // cookie the CSRF pair is still required.
      // A retry with the same Idempotency-Key never files the report twice (the key is stored with it).
      config: { access: "public", csrfOnlyWithSession: true, idempotent: true },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await reports.submitReport(request.auth, request.body, clientInfoOf(request), request.idempotency),
        ),
  );

  app.get(
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
      config: { access: "public" },
    },
    (request) => reports.getReport(request.auth, reportIdOf(request.params.id), linkTokenOf(request)),
  );

  app.get(
    "/reports/:id/link-grant",
    {
      schema: {
        tags,
        summary:
          "Exchanges an e-mail link's preview token (`?token=`) for a grant of the same audience that lives an hour at most (the web pages keep it in an HttpOnly cookie)",
        params: ReportIdParams,
        querystring: z.strictObject({ token: z.string().min(1).max(512) }),
        response: {
          200: z.object({
            token: z.string(),
            audience: z.enum(["vendor", "researcher"]),
            expires_at: z.string(),
          }),
        },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return reports.linkGrant(reportIdOf(request.params.id), request.query.token);
    },
  );

  const previewTags = ["report previews"];

  app.post(
    "/report-previews/:id/pin",
    {
      schema: {
        tags: previewTags,
        summary:
          "The PIN of a report on a product with no program: sets the HttpOnly preview cookie (5 wrong tries lock it 15 minutes)",
        params: ReportIdParams,
        body: PinBody,
        response: { 200: PinAccepted },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      const id = reportIdOf(request.params.id);
      const { credential, expiresAt } = await reports.checkPin(id, request.body.pin, clientInfoOf(request));
      reply.setCookie(PIN_PREVIEW_COOKIE, credential, {
        path: `/api/report-previews/${request.params.id}`,
        httpOnly: true,
        sameSite: "strict",
        secure: secureCookies,
        maxAge: PIN_CREDENTIAL_SECONDS,
      });
      return { expires_at: expiresAt.toISOString() };
    },
  );

  app.get(
    "/report-previews/:id",
    {
      schema: {
        tags: previewTags,
        summary: "The report as its vendor sees it, for the holder of the PIN preview cookie",
        params: ReportIdParams,
        response: { 200: ReportDetail },
      },
      config: { access: "public" },
    },
    (request) => reports.getPinPreview(reportIdOf(request.params.id), request.cookies[PIN_PREVIEW_COOKIE]),
  );

  app.post(
    "/report-previews/:id/patch",
    {
      schema: {
        tags: previewTags,
        summary:
          "The PIN contact submits a fix (fixed version, notes, optional diff and link): awaiting_fix → fix_pending",
        params: ReportIdParams,
        body: PinPatchBody,
        response: { 200: ReportDetail },
      },
      config: { access: "public" },
    },
    (request) =>
      reports.submitPinPatch(
        reportIdOf(request.params.id),
        request.cookies[PIN_PREVIEW_COOKIE],
        request.body,
      ),
  );

  await app.register(fastifyMultipart, {
    // One byte over the limit is enough to refuse; the store counts the bytes itself too.
    limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 0, parts: 1 },
  });

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
      config: { access: "public", csrfOnlyWithSession: true, idempotent: true },
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
      config: { access: "public", csrfOnlyWithSession: true, idempotent: true },
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

  app.post(
    "/report-previews/:id/fix-attachments",
    {
      schema: {
        tags: previewTags,
        summary:
          "The holder of the PIN preview cookie attaches a fix as a zip (multipart field `file`; .zip with the zip signature, 20 MB, 5 per report) while the report awaits a fix",
        consumes: ["multipart/form-data"],
        params: ReportIdParams,
        response: { 201: ReportAttachment },
      },
      config: { access: "public", idempotent: true },
    },
    async (request, reply) => {
      const uploader = await reports.requirePinFixUploader(
        reportIdOf(request.params.id),
        request.cookies[PIN_PREVIEW_COOKIE],
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
      },
      config: { access: "public" },
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

  app.get(
    "/report-previews/:id/attachments/:attachmentId",
    {
      schema: {
        tags: ["report previews"],
        summary: "Downloads an attachment for the holder of the PIN preview cookie",
        params: AttachmentParams,
      },
      config: { access: "public" },
    },
    async (request, reply) =>
      sendDownload(
        reply,
        await reports.openAttachment(null, reportIdOf(request.params.id), request.params.attachmentId, {
          pinCredential: request.cookies[PIN_PREVIEW_COOKIE],
        }),
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
        body: CommentBody,
        response: { 201: ReportDetail },
      },
      // Signed out, only with a token (401 without one); checked in the service. A token holder
      // without a session sends no cookie, so no CSRF pair is needed; with a session it is.
      config: { access: "public", csrfOnlyWithSession: true, idempotent: true },
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

  app.post(
    "/report-previews/:id/comments",
    {
      schema: {
        tags: previewTags,
        summary:
          "The holder of the PIN preview cookie comments on the report (shared with researcher and staff)",
        params: ReportIdParams,
        body: CommentBody,
        response: { 201: ReportDetail },
      },
      config: { access: "public", idempotent: true },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await reports.addPinComment(
            reportIdOf(request.params.id),
            request.cookies[PIN_PREVIEW_COOKIE],
            request.body,
            request.idempotency,
          ),
        ),
  );

  app.get(
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
        body: VendorFixBody,
        response: { 200: ReportDetail },
      },
      // Signed out only with the vendor's preview token (401 without one); checked in the service.
      config: { access: "public", csrfOnlyWithSession: true },
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
        request.query.status,
        pageRequest(request, request.query.page, request.query.per_page),
        request.query.deadline_passed === "true",
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
