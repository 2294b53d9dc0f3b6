import { type AttachmentServiceOptions, createAttachmentService } from "./attachment-service.ts";
import { createCommentService } from "./comment-service.ts";
import { createCveService } from "./cve-service.ts";
import { createDuplicateService } from "./duplicate-service.ts";
import { createPreviewService } from "./preview-service.ts";
import { createRateLimiter, type RateLimitOptions } from "./rate-limits.ts";
import { createReadingService } from "./reading-service.ts";
import { createReportContext, type ReportContextOptions } from "./report-context.ts";
import { createReportMail, type ReportMailOptions } from "./report-mail.ts";
import { createSubmissionService, type SubmissionOptions } from "./submission-service.ts";
import { createTriageService, type TriageOptions } from "./triage-service.ts";

/** Everything the report service is built from; each part documents the options it reads. */
interface ReportServiceOptions
  extends ReportContextOptions,
    ReportMailOptions,
    RateLimitOptions,
    SubmissionOptions,
    TriageOptions,
    AttachmentServiceOptions {}

/**
 * The disclosure workflow (issue 7, decision 008), one part per purpose over one shared context:
 * submission, reading, triage, the previews (link grants and the PIN), attachments and comments. The
 * fix deadline job is jobs/deadline-job.ts.
 */
export function createReportService(options: ReportServiceOptions) {
  const context = createReportContext(options);
  // What the parts share besides the context: the options, the steps' mail and the rate limits.
  const shared = { ...options, reportMail: createReportMail(options), limit: createRateLimiter(options) };
  return {
    ...createSubmissionService(context, shared),
    ...createReadingService(context),
    ...createTriageService(context, shared),
    ...createPreviewService(context, shared),
    ...createAttachmentService(context, shared),
    ...createCommentService(context),
    ...createCveService(context, shared),
    ...createDuplicateService(context),
  };
}

export type ReportService = ReturnType<typeof createReportService>;
