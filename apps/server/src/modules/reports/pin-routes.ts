import fastifyMultipart from "@fastify/multipart";
import {
  CommentSubmission,
  PIN_PREVIEW_COOKIE,
  PinAccepted,
  PinPatch,
  ReportAttachment,
  ReportDetail,
  ReportPin,
} from "@pressguard/domain";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type ClientInfo, clientInfoOf } from "../../http/access.ts";
import type { PageReads } from "../../http/page-reads.ts";
import {
  DOWNLOAD_RESPONSE,
  filePartOf,
  sendDownload,
  UPLOAD_OPTIONS,
  uploadError,
} from "./attachment-http.ts";
import { PIN_CREDENTIAL_SECONDS } from "./preview-tokens.ts";
import { reportIdOf } from "./report-context.ts";
import { AttachmentParams, ReportIdParams } from "./schemas.ts";
import type { ReportService } from "./service.ts";

/**
 * The PIN preview's API (PRODUCT.md §2): the contact of a product with no program opens the report
 * with the e-mailed PIN, then reads it, comments, and submits a fix, holding the preview cookie.
 */
export const pinPreviewRoutes: FastifyPluginAsyncZod<{
  reports: ReportService;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
  secureCookies: boolean;
  /**
   * The visitor a page's server-side call acts for (the PIN page posts its form to its own action,
   * which calls this API from the server: http/visitor-address.ts), so the per-address PIN limit
   * counts each visitor, not the renderer's one address.
   */
  visitorClientInfo?: (request: FastifyRequest, client: ClientInfo) => ClientInfo;
}> = async (app, { reports, reads, secureCookies, visitorClientInfo }) => {
  const previewTags = ["report previews"];

  app.post(
    "/report-previews/:id/pin",
    {
      schema: {
        tags: previewTags,
        summary:
          "The PIN of a report on a product with no program: sets the HttpOnly preview cookie (5 wrong tries lock it 15 minutes)",
        params: ReportIdParams,
        body: ReportPin,
        response: { 200: PinAccepted },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      const id = reportIdOf(request.params.id);
      const client = clientInfoOf(request);
      const { credential, expiresAt } = await reports.checkPin(
        id,
        request.body.pin,
        visitorClientInfo ? visitorClientInfo(request, client) : client,
      );
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

  reads.get(
    app,
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
        body: PinPatch,
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

  await app.register(fastifyMultipart, UPLOAD_OPTIONS);

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
    "/report-previews/:id/attachments/:attachmentId",
    {
      schema: {
        tags: ["report previews"],
        summary: "Downloads an attachment for the holder of the PIN preview cookie",
        params: AttachmentParams,
        response: DOWNLOAD_RESPONSE,
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
    "/report-previews/:id/comments",
    {
      schema: {
        tags: previewTags,
        summary:
          "The holder of the PIN preview cookie comments on the report (shared with researcher and staff)",
        params: ReportIdParams,
        body: CommentSubmission,
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
};
