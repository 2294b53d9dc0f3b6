import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../errors.ts";
import { clientInfoOf } from "../../http/access.ts";
import { pageRequest } from "../../http/pagination.ts";
import {
  CommentBody,
  ReportDetail,
  ReportIdParams,
  ReportPage,
  ReportSubmissionBody,
  ResearcherReportsQuery,
  StaffReportsQuery,
  SubmittedReport,
  TransitionBody,
  VendorFixBody,
  VendorReportsQuery,
} from "./schemas.ts";
import { type ReportService, reportIdOf } from "./service.ts";

const tags = ["reports"];

function signedIn(request: FastifyRequest) {
  if (!request.auth) throw new AppError("unauthenticated");
  return request.auth;
}

/** The disclosure workflow's API (issue 7, decision 008); ownership is checked in the service. */
export const reportRoutes: FastifyPluginAsyncZod<{ reports: ReportService }> = async (app, { reports }) => {
  app.post(
    "/reports",
    {
      schema: {
        tags,
        summary: "Submits a report: signed in, or signed out with an e-mail and a solved captcha",
        body: ReportSubmissionBody,
        response: { 201: SubmittedReport },
      },
      config: { access: "public" },
    },
    async (request, reply) =>
      reply.status(201).send(await reports.submitReport(request.auth, request.body, clientInfoOf(request))),
  );

  app.get(
    "/reports/:id",
    {
      schema: {
        tags,
        summary: "A report, for its researcher, staff, or the owning vendor once validated",
        params: ReportIdParams,
        response: { 200: ReportDetail },
      },
      config: { access: "user" },
    },
    (request) => reports.getReport(signedIn(request), reportIdOf(request.params.id)),
  );

  app.post(
    "/reports/:id/comments",
    {
      schema: {
        tags,
        summary: "Comments on a report (researcher, owning vendor, staff; staff-only comments for staff)",
        params: ReportIdParams,
        body: CommentBody,
        response: { 201: ReportDetail },
      },
      config: { access: "user" },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await reports.addComment(signedIn(request), reportIdOf(request.params.id), request.body)),
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
        signedIn(request),
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
        signedIn(request),
        request.query.tab,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.post(
    "/vendor/reports/:id/fix",
    {
      schema: {
        tags,
        summary: "The owning vendor submits a fix: awaiting_fix → fix_pending",
        params: ReportIdParams,
        body: VendorFixBody,
        response: { 200: ReportDetail },
      },
      config: { access: "vendor" },
    },
    (request) => reports.submitFix(signedIn(request), reportIdOf(request.params.id), request.body),
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
    (request) => reports.transition(signedIn(request), reportIdOf(request.params.id), request.body),
  );
};
