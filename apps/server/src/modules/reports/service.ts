import { randomInt, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import {
  actionsFrom,
  isAcceptedAttachmentName,
  isFixArchiveName,
  LINK_GRANT_SECONDS,
  OPEN_REPORT_STATES,
  parseCvssVector,
  REJECTION_REASONS,
  RESEARCHER_REPORT_TABS,
  type RejectionReason,
  ReportAction,
  type ReportActor,
  type ReportAttachment,
  type ReportAttachmentKind,
  type ReportDetail,
  type ReportListItem,
  type ReportPage,
  ReportRejection,
  type ReportState,
  ReportSubmission,
  ReportValidation,
  type ResearcherReportTab,
  SignedOutReportSubmission,
  type SubmittedReport,
  startsWithZipSignature,
  transitionOf,
  VENDOR_REPORT_TABS,
  VENDOR_VISIBLE_REPORT_STATES,
  type VendorReportTab,
  vulnerabilitySlug,
  vulnerabilityTypeByCode,
  ZIP_SIGNATURE,
} from "@pressguard/domain";
import { z } from "zod";
import type { Database, SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import type { IdempotentAttempt } from "../../http/idempotency.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { MailTemplate } from "../../mail/templates.ts";
import type { MagicLinkOutcome } from "../auth/service.ts";
import type { CaptchaService } from "../captcha/service.ts";
import type { AttachmentStore, StorageKind } from "./attachment-store.ts";
import {
  ATTACHMENT_MESSAGES,
  ATTACHMENTS_PER_REPORT,
  cleanFilename,
  FIX_ATTACHMENTS_PER_REPORT,
  FIX_UPLOAD_MESSAGES,
  FileTooLargeError,
  type UploadSpool,
} from "./attachments.ts";
import type { ReportEvent, ReportEventSink } from "./events.ts";
import {
  PIN_CREDENTIAL_SECONDS,
  PREVIEW_LINK_SECONDS,
  type PreviewTokens,
  UPLOAD_TOKEN_SECONDS,
} from "./preview-tokens.ts";
import {
  type CommentRow,
  createPinAndDeadlineQueries,
  createReportQueries,
  type EventRow,
  type ReportChanges,
  type ReportListRow,
  type ReportRow,
  type ReportStamps,
} from "./queries.ts";
import type { PinPatchBody } from "./schemas.ts";

const REPORT_NOT_FOUND = "Report not found.";

/**
 * Submission budgets, [hits, window in seconds]: anonymous per IP and per e-mail (decision 008),
 * signed in per user (issue 15: a burst of reports from one account was accepted without end).
 */
export const REPORT_RATE_LIMITS = {
  submitIp: [10, 600],
  submitEmail: [5, 600],
  submitUser: [20, 3600],
} as const satisfies Record<string, readonly [number, number]>;

/** The PIN endpoint: [hits, window in seconds] per IP, besides the per-report lock. */
const PIN_RATE_LIMIT = [20, 900] as const;
const PIN_MAX_ATTEMPTS = 5;
const PIN_LOCK_SECONDS = 15 * 60;
/** The deadline job e-mails "deadline near" this many days before the fix deadline. */
const DEADLINE_NEAR_DAYS = 7;

const REPORT_MESSAGES = {
  verifyEmail: "Verify your e-mail address before submitting a report.",
  wrongPin: (left: number) =>
    `The PIN is not correct. ${left} ${left === 1 ? "try" : "tries"} left before the report is locked for 15 minutes.`,
  pinLocked: (until: Date, seconds: number) =>
    `Too many wrong PINs: the report is locked until ${until.toISOString().slice(11, 16)} UTC. Try again in ${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? "" : "s"}.`,
  pinCredential: "Enter the PIN from the e-mail to open this report.",
} as const;

/** The argon2id cost of PIN hashes: a 6-digit PIN is cheap to guess offline, so never a fast hash. */
const PIN_HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const EMBED_MESSAGES = {
  unknownKey: "This reporting form is not available: the vendor key is unknown.",
  notTheVendors: (vendorName: string) =>
    `This form reports only on ${vendorName}'s products with a disclosure program. Report other software on the Pressguard report page.`,
} as const;

/** Who attaches a fix zip, checked before its bytes are read. */
export interface FixUploader {
  reportId: string;
  /** The signed-in vendor; null for a link token or the PIN contact. */
  uploaderId: number | null;
  actor: "vendor" | "pin_contact";
}

type NewComment = { body: string; visibility: "staff" | "vendor_researcher" };

const COMMENT_MESSAGES = {
  staffOnly: "Only staff can write staff-only comments.",
} as const;

/**
 * Who reads a report: the three parties of PRODUCT.md §2. Anyone else gets 404. A holder of a
 * preview link reads as its audience (researcher or vendor), the PIN contact as the vendor.
 */
type Viewer = "staff" | "researcher" | "vendor";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A report id in a path: a malformed one names no report (and never reaches SQL as a bad uuid). */
export function reportIdOf(value: string): string {
  if (!UUID_PATTERN.test(value)) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
  return value.toLowerCase();
}

const TransitionHead = z.object({
  action: ReportAction,
  note: z
    .string({ error: "The note must be text." })
    .trim()
    .max(10_000, { error: "The note must be at most 10,000 characters long." })
    .nullish()
    .transform((value) => (value ? value : null)),
});

const isStaff = (auth: RequestAuth) => auth.user.is_staff && auth.user.two_factor_enabled;

function viewerOf(auth: RequestAuth, row: ReportRow): Viewer | null {
  if (isStaff(auth)) return "staff";
  if (row.researcher_user_id !== null && row.researcher_user_id === auth.user.id) return "researcher";
  if (
    auth.user.vendor &&
    row.product_vendor_id === auth.user.vendor.id &&
    VENDOR_VISIBLE_REPORT_STATES.includes(row.status)
  )
    return "vendor";
  return null;
}

function publicPathOf(row: Pick<ReportRow, "platform" | "product_kind" | "product_slug">, slug: string) {
  return `/database/${row.platform}/${row.product_kind}/${encodeURIComponent(row.product_slug)}/vulnerability/${slug}`;
}

/** OSV-style bounds from the prefix form (PRODUCT.md §6): "<=" X, "<" X or exactly X. */
function rangeOf(prefix: string, version: string, fixedVersion: string | null) {
  return {
    prefix,
    version,
    introduced: prefix === "" ? version : null,
    lastAffected: prefix === "<=" || prefix === "" ? version : null,
    fixed: fixedVersion ?? (prefix === "<" ? version : null),
  };
}

/** What validating sets: the classification, versions, CVE and the CVSS 3.1 score computed here. */
function validationChanges(validation: ReportValidation): ReportChanges {
  const score = parseCvssVector(validation.cvss_vector);
  return {
    type_code: validation.vulnerability_type,
    owasp_code: validation.owasp_category,
    required_privilege: validation.required_privilege,
    affected_version_prefix: validation.affected_version_prefix,
    affected_version: validation.affected_version,
    fixed_version: validation.fixed_version,
    cvss_vector: validation.cvss_vector,
    cvss_score: score.ok ? score.baseScore : null,
    severity: score.ok ? score.severity : null,
    cve: validation.cve,
  };
}

function listItemOf(row: ReportListRow, staff: boolean): ReportListItem {
  return {
    id: row.id,
    status: row.status,
    title: row.title,
    product: {
      platform: row.platform,
      kind: row.product_kind,
      slug: row.product_slug,
      name: row.product_name,
    },
    vulnerability_type: row.type_code,
    severity: row.severity,
    fix_deadline_at: isoOrNull(row.fix_deadline_at),
    deadline_passed_at: isoOrNull(row.deadline_passed_at),
    created_at: isoOrNull(row.created_at) ?? "",
    updated_at: isoOrNull(row.updated_at) ?? "",
    ...(staff && { possible_duplicate_of: row.possible_duplicate_of }),
  };
}

interface AttachmentRow {
  id: string;
  kind: ReportAttachmentKind;
  filename: string;
  content_type: string;
  size_bytes: number;
  created_at: Date | string;
}

const attachmentOf = (row: AttachmentRow): ReportAttachment => ({
  id: row.id,
  kind: row.kind,
  filename: row.filename,
  content_type: row.content_type,
  size: row.size_bytes,
  created_at: isoOrNull(row.created_at) ?? "",
});

function detailOf(
  row: ReportRow,
  viewer: Viewer,
  events: EventRow[],
  comments: CommentRow[],
  actor: ReportActor | null,
  attachments: AttachmentRow[],
): ReportDetail {
  return {
    id: row.id,
    status: row.status,
    title: row.title,
    product: {
      id: row.product_id,
      platform: row.platform,
      kind: row.product_kind,
      slug: row.product_slug,
      name: row.product_name,
      is_lobby_product: row.product_is_lobby,
      has_active_program: row.product_vendor_id !== null && row.product_is_active,
    },
    researcher:
      row.researcher_uuid && row.researcher_name
        ? { uuid: row.researcher_uuid, display_name: row.researcher_name }
        : null,
    affected_version_prefix: row.affected_version_prefix,
    affected_version: row.affected_version,
    vulnerability_type: row.type_code,
    owasp_category: row.owasp_code,
    required_privilege: row.required_privilege,
    description: row.description,
    steps_to_reproduce: row.steps_to_reproduce,
    proof_of_concept: row.proof_of_concept,
    suggested_fix: row.suggested_fix,
    reported_cvss_vector: row.reported_cvss_vector,
    cvss_vector: row.cvss_vector,
    cvss_score: row.cvss_score === null ? null : Number(row.cvss_score),
    severity: row.severity,
    cve: row.cve,
    fixed_version: row.fixed_version,
    fix_url: row.fix_url,
    ...(viewer !== "researcher" && { fix_diff: row.fix_diff }),
    rejection_reason: row.rejection_reason,
    vendor_notified_at: isoOrNull(row.vendor_notified_at),
    fix_deadline_at: isoOrNull(row.fix_deadline_at),
    deadline_passed_at: isoOrNull(row.deadline_passed_at),
    fixed_at: isoOrNull(row.fixed_at),
    validated_at: isoOrNull(row.validated_at),
    published_at: isoOrNull(row.published_at),
    created_at: isoOrNull(row.created_at) ?? "",
    updated_at: isoOrNull(row.updated_at) ?? "",
    public_path:
      row.status === "published" && row.vulnerability_slug ? publicPathOf(row, row.vulnerability_slug) : null,
    actions: actor ? actionsFrom(row.status, actor) : [],
    attachments: attachments.map(attachmentOf),
    timeline: events.map((event) => ({
      action: event.action,
      from_state: event.from_state,
      to_state: event.to_state,
      note: event.note,
      ...(viewer === "staff" && {
        actor:
          event.actor_user_id === null ? null : { id: event.actor_user_id, name: event.actor_name ?? "" },
      }),
      created_at: isoOrNull(event.created_at) ?? "",
    })),
    comments: comments.map((comment) => ({
      id: comment.id,
      body: comment.body,
      visibility: comment.visibility,
      author: comment.author_name === null ? null : { name: comment.author_name },
      created_at: isoOrNull(comment.created_at) ?? "",
    })),
    ...(viewer === "staff" && {
      reporter_email: row.reporter_email,
      possible_duplicate_of: row.possible_duplicate_of,
    }),
  };
}

/** Whether the product has a vendor with an active program (else the PIN flow reaches its contact). */
const hasActiveProgram = (row: ReportRow) => row.product_vendor_id !== null && row.product_is_active;

export interface ReportServiceOptions {
  mailer: Mailer;
  /** Signs and checks preview links and the PIN credential (PREVIEW_TOKEN_KEY). */
  previewTokens: PreviewTokens;
  /** Where uploads are received before they are stored (ATTACHMENTS_DIR, local to this instance). */
  uploads: UploadSpool;
  /** Where attachment bytes are stored: shared by every instance (decision 022). */
  attachments: AttachmentStore;
  /** Every store a stored row may name (the configured one, and the database's when S3 is configured). */
  attachmentStores?: Partial<Record<StorageKind, AttachmentStore>>;
  appUrl: string;
  captcha: CaptchaService;
  /** The shared fixed-window counter of the auth module (rate_limits). */
  hitRateLimit(key: string, windowSeconds: number): Promise<{ hits: number; secondsLeft: number }>;
  /** Multiplies the budgets of REPORT_RATE_LIMITS (AUTH_RATE_LIMIT_FACTOR). */
  rateLimitFactor?: number;
  /** The auth module's magic link: signs a signed-out reporter in to follow their report. */
  sendMagicLink(email: string, client: ClientInfo): Promise<MagicLinkOutcome>;
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
  /** A mail that could not be queued after the report was stored: logged, never a failed request. */
  onMailError?: (error: unknown) => void;
  /** Report forwarding: told of every event for the owning vendor, inside the change's transaction. */
  events?: ReportEventSink;
}

export function createReportService(database: Database, options: ReportServiceOptions) {
  const queries = createReportQueries(database.sql);
  const pins = createPinAndDeadlineQueries(database.sql);
  const { appUrl, captcha, previewTokens } = options;

  async function limit(key: string, [budget, windowSeconds]: readonly [number, number], what = "reports") {
    const maxHits = Math.max(1, Math.floor(budget * (options.rateLimitFactor ?? 1)));
    const { hits, secondsLeft } = await options.hitRateLimit(key, windowSeconds);
    if (hits > maxHits) {
      throw new AppError("rate_limited", {
        message: `Too many ${what}. Please try again in ${secondsLeft} seconds.`,
        headers: { "retry-after": String(secondsLeft) },
      });
    }
  }

  /**
   * Records a report event for the owning vendor (issue 8), inside `tx`. Only for a product with an
   * active program, and only for a report the vendor may read after the change.
   */
  async function recordEvent(
    row: ReportRow,
    event: Omit<ReportEvent, "vendorId" | "reportId">,
    tx: SqlRunner,
  ): Promise<void> {
    if (!options.events || !hasActiveProgram(row)) return;
    if (!VENDOR_VISIBLE_REPORT_STATES.includes(event.toState)) return;
    await options.events.record({ ...event, vendorId: row.product_vendor_id!, reportId: row.id }, tx);
  }

  async function mail(to: string | null, template: MailTemplate) {
    if (!to) return;
    try {
      await options.mailer.enqueue(to, template);
    } catch (error) {
      options.onMailError?.(error);
    }
  }

  /** An e-mail link to a report's preview page, carrying a 7-day token for that report and audience. */
  const previewUrl = (id: string, audience: "vendor" | "researcher") =>
    `${appUrl}${audience === "vendor" ? "/vdp/vulnerabilities" : "/researchers/reports"}/${id}/preview?token=${previewTokens.sign(id, audience, PREVIEW_LINK_SECONDS)}`;
  const reportUrl = (id: string) => previewUrl(id, "researcher");
  const pinUrl = (id: string) => `${appUrl}/database/report-preview/${id}/pin`;

  /**
   * Who hears of the vendor's side of a report: the owning vendor's contact when the product has an
   * active program (a signed vendor link), else the PIN contact (the link to the PIN page).
   */
  async function vendorRecipient(row: ReportRow): Promise<{ to: string; name: string; url: string } | null> {
    if (hasActiveProgram(row)) {
      const vendor = await queries.vendorContact(row.product_vendor_id!);
      return vendor
        ? { to: vendor.contact_email, name: vendor.vendor_name, url: previewUrl(row.id, "vendor") }
        : null;
    }
    const { rows } = await database.sql.query<{ contact_email: string }>(
      "select contact_email from report_pins where report_id = $1",
      [row.id],
    );
    return rows[0] ? { to: rows[0].contact_email, name: "", url: pinUrl(row.id) } : null;
  }

  /** Staff hear of a fix to verify: every staff account with its second factor on. */
  async function mailStaffOfFix(row: ReportRow) {
    const staffEmails = await queries.staffEmails();
    for (const to of staffEmails)
      await mail(to, {
        template: "report_fix_to_verify",
        reportTitle: row.title,
        productName: row.product_name,
        fixedVersion: row.fixed_version ?? "",
        fixUrl: row.fix_url,
        url: `${appUrl}/staff/reports/${row.id}`,
      });
  }

  /** After a vendor's or PIN contact's fix: the researcher and staff hear of it. */
  async function mailAfterFix(row: ReportRow) {
    await mail(row.researcher_email, {
      template: "report_fix_submitted",
      name: row.researcher_name ?? "",
      reportTitle: row.title,
      detail: row.fixed_version ? `Fixed version: ${row.fixed_version}` : null,
      url: reportUrl(row.id),
    });
    await mailStaffOfFix(row);
  }

  /**
   * E-mail after a staff transition, each with a link to the page it is about: the researcher hears
   * of in review, rejected, validated, fixed and published; the vendor's side (its contact, or the
   * PIN contact) of its notification, an insufficient fix and a verified one.
   */
  async function mailAfter(
    row: ReportRow,
    action: ReportAction,
    note: string | null,
    pin: { pin: string; contactEmail: string } | null,
  ) {
    if (pin) {
      // PRODUCT.md §2: the private link and, in a separate e-mail, the PIN.
      await mail(pin.contactEmail, {
        template: "report_pin_notice",
        reportTitle: row.title,
        productName: row.product_name,
        deadline: isoOrNull(row.fix_deadline_at) ?? "",
        url: pinUrl(row.id),
      });
      await mail(pin.contactEmail, {
        template: "report_pin",
        reportTitle: row.title,
        productName: row.product_name,
        pin: pin.pin,
        url: pinUrl(row.id),
      });
    }
    const base = { name: row.researcher_name ?? "", reportTitle: row.title };
    if (action === "take_into_review") {
      await mail(row.researcher_email, {
        template: "report_in_review",
        ...base,
        detail: note,
        url: reportUrl(row.id),
      });
    } else if (action === "mark_fix_insufficient" || action === "verify_fix") {
      if (action === "verify_fix")
        await mail(row.researcher_email, {
          template: "report_fixed",
          ...base,
          detail: row.fixed_version ? `Fixed version: ${row.fixed_version}` : null,
          url: reportUrl(row.id),
        });
      const recipient = await vendorRecipient(row);
      if (recipient)
        await mail(recipient.to, {
          template: action === "verify_fix" ? "report_vendor_fixed" : "report_fix_insufficient",
          name: recipient.name,
          reportTitle: row.title,
          productName: row.product_name,
          detail: note,
          url: recipient.url,
        });
    } else if (action === "reject") {
      const label = REJECTION_REASONS.find((reason) => reason.value === row.rejection_reason)?.label;
      await mail(row.researcher_email, {
        template: "report_rejected",
        ...base,
        detail: [label, note].filter(Boolean).join(" — ") || null,
        url: reportUrl(row.id),
      });
    } else if (action === "validate") {
      await mail(row.researcher_email, {
        template: "report_validated",
        ...base,
        detail: note,
        url: reportUrl(row.id),
      });
    } else if (action === "notify_vendor" && hasActiveProgram(row)) {
      const vendor = await queries.vendorContact(row.product_vendor_id!);
      await mail(vendor?.contact_email ?? null, {
        template: "report_vendor_notified",
        name: vendor?.vendor_name ?? "",
        reportTitle: row.title,
        productName: row.product_name,
        deadline: isoOrNull(row.fix_deadline_at) ?? "",
        url: previewUrl(row.id, "vendor"),
      });
    } else if ((action === "publish" || action === "publish_unpatched") && row.vulnerability_slug) {
      await mail(row.researcher_email, {
        template: "report_published",
        ...base,
        detail: note,
        url: `${appUrl}${publicPathOf(row, row.vulnerability_slug)}`,
      });
    }
  }

  let deadlineTimer: NodeJS.Timeout | null = null;
  let deadlineRun: Promise<void> | null = null;

  /**
   * Who reads a report: a caller who may as themselves, else the holder of a genuine, unexpired
   * preview token for this very report (as its audience, with no actions). Signed out without a
   * token: 401; anyone else: 404.
   */
  async function requireReader(auth: RequestAuth | null, id: string, token: string | undefined) {
    if (!auth && token === undefined) throw new AppError("unauthenticated");
    const row = await requireReport(id);
    const viewer = auth ? viewerOf(auth, row) : null;
    if (viewer) return { row, viewer, actor: undefined };
    const claims = token === undefined ? null : previewTokens.verify(token);
    if (claims && claims.reportId === row.id) {
      if (claims.audience === "researcher") return { row, viewer: "researcher" as const, actor: null };
      if (claims.audience === "vendor" && VENDOR_VISIBLE_REPORT_STATES.includes(row.status))
        return { row, viewer: "vendor" as const, actor: null };
    }
    throw new AppError("not_found", { message: REPORT_NOT_FOUND });
  }

  /** The report behind a PIN credential (a pin_contact token for this very report), else 401/404. */
  async function requirePinContact(id: string, credential: string | undefined) {
    const claims = previewTokens.verify(credential);
    if (claims?.audience !== "pin_contact" || claims.reportId !== id)
      throw new AppError("unauthenticated", { message: REPORT_MESSAGES.pinCredential });
    return requireReport(id);
  }

  /**
   * A report from a vendor's embedded form (`/iframe/vendor?vendor={public key}`) names one of that
   * vendor's active programs, never another vendor's product or a lobby product: 404 for an unknown
   * key, 422 on the product otherwise.
   */
  async function requireEmbedProduct(key: unknown, form: { kind: string; product_slug: string }) {
    const vendor = typeof key === "string" && UUID_PATTERN.test(key) ? await queries.embedVendor(key) : null;
    if (!vendor) throw new AppError("not_found", { message: EMBED_MESSAGES.unknownKey });
    if (!(await queries.isActiveProgramOf(vendor.id, form.kind, form.product_slug)))
      throw new AppError("validation", {
        fieldErrors: { product_slug: [EMBED_MESSAGES.notTheVendors(vendor.vendor_name)] },
      });
  }

  /**
   * Adds a comment and answers the report as `viewer` sees it afterwards. With an idempotency key the
   * answer is stored in the comment's own transaction: a retry after a lost response gets it back and
   * never adds the comment twice.
   */
  async function insertComment(
    row: ReportRow,
    authorUserId: number | null,
    comment: NewComment,
    answer: { viewer: Viewer; actor?: ReportActor | null; idempotency: IdempotentAttempt | null },
  ): Promise<ReportDetail> {
    return database.sql.transaction(async (tx) => {
      const commentId = await queries.insertComment(
        { reportId: row.id, authorUserId, body: comment.body, visibility: comment.visibility },
        tx,
      );
      // Staff-only comments are not the vendor's to read, so they are not forwarded.
      if (comment.visibility === "vendor_researcher")
        await recordEvent(
          row,
          {
            type: "report.comment_added",
            action: "comment",
            fromState: row.status,
            toState: row.status,
            commentId,
          },
          tx,
        );
      const detail = await detailFor(row, answer.viewer, answer.actor, tx);
      await answer.idempotency?.record(tx, 201, detail);
      return detail;
    });
  }

  /**
   * The owning vendor acting on a report: signed in (its user id), or holding its e-mailed link's
   * token (no user). Staff and the researcher read the report but do not act for the vendor (403);
   * anyone else gets 404.
   */
  function vendorSideOf(auth: RequestAuth | null, row: ReportRow, token: string | undefined) {
    const viewer = auth ? viewerOf(auth, row) : null;
    if (viewer === "vendor" && auth) return { userId: auth.user.id };
    const claims = previewTokens.verify(token);
    if (
      claims?.audience === "vendor" &&
      claims.reportId === row.id &&
      VENDOR_VISIBLE_REPORT_STATES.includes(row.status)
    )
      return { userId: null };
    if (viewer) throw new AppError("forbidden", { message: FIX_UPLOAD_MESSAGES.notAllowed });
    throw new AppError("not_found", { message: REPORT_NOT_FOUND });
  }

  /** A fix is attached only while the domain lets `actor` submit one (awaiting_fix): else 409. */
  function requireAwaitingFix(row: ReportRow, actor: ReportActor) {
    if (!transitionOf(row.status, "submit_fix", { actor }).ok)
      throw new AppError("conflict", { message: FIX_UPLOAD_MESSAGES.state });
  }

  /**
   * Streams an upload to the store and records it as a `rule.kind` file of report `id`, at most
   * `rule.perReport` of that kind. Counted under the report's row lock, so two uploads at once never
   * make one too many; `accept` may refuse the received bytes (422), `whileLocked` the report's state.
   */
  async function storeAttachment(
    id: string,
    upload: { filename: string; mimetype: string; file: Readable },
    uploaderId: number | null,
    rule: {
      kind: ReportAttachmentKind;
      perReport: number;
      tooMany: string;
      accept?: (tempPath: string) => Promise<string | null>;
      whileLocked?: (row: ReportRow) => void;
    },
    idempotency: IdempotentAttempt | null,
  ): Promise<ReportAttachment> {
    const countOf = async (tx: SqlRunner) =>
      (
        await tx.query<{ count: number }>(
          "select count(*)::int as count from report_attachments where report_id = $1 and kind = $2",
          [id, rule.kind],
        )
      ).rows[0]?.count ?? 0;
    if ((await countOf(database.sql)) >= rule.perReport) {
      upload.file.resume();
      throw new AppError("conflict", { message: rule.tooMany });
    }
    const received = await options.uploads.receive(upload.file).catch((error: unknown) => {
      if (error instanceof FileTooLargeError)
        throw new AppError("payload_too_large", { message: ATTACHMENT_MESSAGES.tooLarge });
      throw error;
    });
    const key = { reportId: id, id: randomUUID() };
    const file = { path: received.tempPath, size: received.size };
    let staged = false;
    try {
      if (received.size === 0)
        throw new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.empty] } });
      const refusal = rule.accept ? await rule.accept(received.tempPath) : null;
      if (refusal) throw new AppError("validation", { fieldErrors: { file: [refusal] } });
      // S3 takes the bytes before the transaction (the report's lock is not held during the put).
      staged = true;
      await options.attachments.stage(key, file);
      const stored = await database.sql.transaction(async (tx) => {
        rule.whileLocked?.(await requireReport(id, tx, true));
        if ((await countOf(tx)) >= rule.perReport) throw new AppError("conflict", { message: rule.tooMany });
        const { rows } = await tx.query<AttachmentRow>(
          `insert into report_attachments (id, report_id, kind, filename, content_type, size_bytes, sha256, uploaded_by_user_id, storage)
           values ($8, $1, $2, $3, $4, $5, $6, $7, $9) returning id::text, kind, filename, content_type, size_bytes, created_at`,
          [
            id,
            rule.kind,
            cleanFilename(upload.filename),
            upload.mimetype.slice(0, 200) || "application/octet-stream",
            received.size,
            received.sha256,
            uploaderId,
            key.id,
            options.attachments.kind,
          ],
        );
        // The database store writes the bytes in this transaction: they commit with the row or not at all.
        await options.attachments.commit(key, file, tx);
        // A retry after a lost answer gets this one back and stores nothing twice.
        await idempotency?.record(tx, 201, attachmentOf(rows[0]!));
        return rows[0]!;
      });
      return attachmentOf(stored);
    } catch (error) {
      // Nothing half-written: bytes an S3 store took while the row then failed to commit (the
      // database went away) go with the row that was not stored.
      if (staged) await options.attachments.remove(key).catch(() => {});
      throw error;
    } finally {
      await options.uploads.discard(received.tempPath);
    }
  }

  /** The answer to POST /reports. */
  function submittedOf(
    row: ReportRow,
    accountCreated: boolean,
    magicLinkSent: boolean,
    twoFactorRequired: boolean,
  ): SubmittedReport {
    return {
      id: row.id,
      status: row.status,
      title: row.title,
      created_at: isoOrNull(row.created_at) ?? "",
      account_created: accountCreated,
      magic_link_sent: magicLinkSent,
      two_factor_required: twoFactorRequired,
      upload_token: previewTokens.sign(row.id, "uploader", UPLOAD_TOKEN_SECONDS),
    };
  }

  async function requireReport(id: string, tx?: SqlRunner, lock = false) {
    const row = await queries.getReport(id, tx, lock);
    if (!row) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
    return row;
  }

  /**
   * Creates or updates the public record of a report (PRODUCT.md §2 "publishing"), credits its
   * researcher and bumps the data version so public caches refresh. Unpatched: no fixed version.
   */
  async function publishRecord(row: ReportRow, patched: boolean, tx: SqlRunner): Promise<string> {
    const vulnerabilityId = row.vulnerability_id ?? crypto.randomUUID();
    const fixedIn = patched ? row.fixed_version : null;
    await queries.writeVulnerability(
      {
        id: vulnerabilityId,
        slug: vulnerabilitySlug(row.title, vulnerabilityId),
        productId: row.product_id,
        title: row.title,
        description: row.description ?? "",
        typeLabel:
          row.type_code === null ? null : (vulnerabilityTypeByCode.get(row.type_code)?.label ?? null),
        typeCode: row.type_code,
        owaspCode: row.owasp_code,
        requiredPrivilege: row.required_privilege,
        cvssVector: row.cvss_vector,
        cvssScore: row.cvss_score === null ? null : Number(row.cvss_score),
        severity: row.severity,
        cve: row.cve,
        fixedIn,
        range: rangeOf(row.affected_version_prefix ?? "<=", row.affected_version ?? "*", fixedIn),
        researcherId: row.researcher_id,
      },
      tx,
    );
    await bumpDataVersion(tx);
    return vulnerabilityId;
  }

  /** A signed-out reporter's account: the e-mail's existing one, or a new one without a password. */
  async function reporterAccount(email: string, tx: SqlRunner) {
    const existing = await queries.findUserByEmail(email, tx);
    if (existing) return { userId: existing.id, name: existing.name, accountCreated: false };
    const created = await queries.createPasswordlessUser(nameOf(email), email, tx);
    if (created !== null) return { userId: created, name: nameOf(email), accountCreated: true };
    // Created by a concurrent request in the meantime.
    const raced = await queries.findUserByEmail(email, tx);
    if (!raced) throw new Error("the reporter's account vanished");
    return { userId: raced.id, name: raced.name, accountCreated: false };
  }

  async function detailFor(
    row: ReportRow,
    viewer: Viewer,
    actor: ReportActor | null = viewer === "staff" ? "staff" : viewer === "vendor" ? "vendor" : null,
    tx: SqlRunner = database.sql,
  ): Promise<ReportDetail> {
    const events = await queries.listEvents(row.id, tx);
    const comments = await queries.listComments(
      row.id,
      viewer === "staff" ? ["staff", "vendor_researcher"] : ["vendor_researcher"],
      tx,
    );
    const attachments = await tx.query<AttachmentRow>(
      `select id::text, kind, filename, content_type, size_bytes, created_at from report_attachments
       where report_id = $1 order by created_at, id`,
      [row.id],
    );
    return detailOf(row, viewer, events, comments, actor, attachments.rows);
  }

  async function page(
    filter: Parameters<typeof queries.listReports>[0],
    request: PageRequest,
    staff = false,
  ): Promise<ReportPage> {
    const offset = (request.page - 1) * request.perPage;
    const { rows, total } = await queries.listReports(filter, request.perPage, offset);
    return {
      data: rows.map((row) => listItemOf(row, staff)),
      pagination: paginationOf(request.path, request.query, request.page, request.perPage, total),
    };
  }

  const service = {
    /**
     * POST /reports (PRODUCT.md §3): a signed-in researcher, or a signed-out reporter with an e-mail
     * and a solved captcha. Answers only after the report and its first timeline event are committed.
     */
    async submitReport(
      auth: RequestAuth | null,
      body: Record<string, unknown>,
      client: ClientInfo,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<SubmittedReport> {
      // PRODUCT.md: reports need a verified address (signed out, the magic link verifies it).
      if (auth && !auth.user.email_verified)
        throw new AppError("forbidden", { message: REPORT_MESSAGES.verifyEmail });
      if (auth) await limit(`report:user:${auth.user.id}`, REPORT_RATE_LIMITS.submitUser);
      else await limit(`report:ip:${client.ip}`, REPORT_RATE_LIMITS.submitIp);
      const parsed = (auth ? ReportSubmission : SignedOutReportSubmission).safeParse(body);
      const captchaPayload = typeof body.captcha === "string" ? body.captcha : null;
      if (!parsed.success) {
        const issues: { path: PropertyKey[]; message: string }[] = [...parsed.error.issues];
        if (!auth && captcha.enabled && !captchaPayload)
          issues.push({ path: ["captcha"], message: captcha.requiredMessage });
        throw validationErrorOf(issues);
      }
      const form = parsed.data;
      if (body.embed_key !== undefined) await requireEmbedProduct(body.embed_key, form);
      const email = auth ? auth.user.email : (form.email ?? "").toLowerCase();
      if (!auth) await limit(`report:email:${email}`, REPORT_RATE_LIMITS.submitEmail);
      const solved = auth ? null : await captcha.verify(captchaPayload);

      const stored = await database.sql.transaction(async (tx) => {
        await captcha.spend(solved, tx);
        const { userId, name, accountCreated } = auth
          ? { userId: auth.user.id, name: auth.user.name, accountCreated: false }
          : await reporterAccount(email, tx);
        const researcherId = await queries.ensureResearcher(userId, name, tx);
        const product = await queries.findOrCreateProduct(
          { kind: form.kind, slug: form.product_slug, name: form.product_name },
          tx,
        );
        const duplicate = await queries.findPossibleDuplicate(
          product.id,
          form.vulnerability_type,
          [...OPEN_REPORT_STATES, "published"],
          tx,
        );
        const id = await queries.insertReport(
          {
            productId: product.id,
            researcherId,
            submittedByUserId: userId,
            reporterEmail: auth ? null : email,
            title: form.title,
            affectedVersionPrefix: form.affected_version_prefix,
            affectedVersion: form.affected_version,
            typeCode: form.vulnerability_type,
            owaspCode: form.owasp_category,
            requiredPrivilege: form.required_privilege,
            description: form.description,
            stepsToReproduce: form.steps_to_reproduce,
            proofOfConcept: form.proof_of_concept,
            suggestedFix: form.suggested_fix,
            reportedCvssVector: form.cvss_vector,
            possibleDuplicateOf: duplicate,
          },
          tx,
        );
        await queries.insertEvent(
          {
            reportId: id,
            actorUserId: auth ? auth.user.id : null,
            action: "submit",
            fromState: null,
            toState: "submitted",
            note: null,
          },
          tx,
        );
        // A new lobby product shows in product searches (/database/existing).
        if (product.created) await bumpDataVersion(tx);
        // With an Idempotency-Key, the answer commits with the report: a caller whose connection was
        // cut after the commit gets this report back on retry, never a second one. No mail is sent
        // yet, so it says so; the answer actually sent replaces it.
        const row = await requireReport(id, tx);
        await idempotency?.record(tx, 201, submittedOf(row, accountCreated, false, false));
        return { row, name, accountCreated, productCreated: product.created };
      });

      if (stored.productCreated) await options.onPublicChange?.();
      const row = stored.row;
      await mail(email, {
        template: "report_received",
        name: stored.name,
        reportTitle: row.title,
        detail: null,
        url: reportUrl(row.id),
      });
      let magicLinkSent = false;
      let twoFactorRequired = false;
      if (!auth) {
        try {
          const outcome = await options.sendMagicLink(email, client);
          magicLinkSent = outcome === "sent";
          twoFactorRequired = outcome === "two_factor";
        } catch (error) {
          // The report is stored: a sign-in link refused by its own limit is not the reporter's failure.
          if (!(error instanceof AppError && error.code === "rate_limited")) options.onMailError?.(error);
        }
      }
      return submittedOf(row, stored.accountCreated, magicLinkSent, twoFactorRequired);
    },

    /**
     * GET /reports/{id}: the researcher who reported it, staff, or the owning vendor from validation on;
     * or anyone holding a preview link's token for this report, who reads as its audience (no actions).
     * Signed out without a token: 401. A token of another report, expired or forged: 404.
     */
    async getReport(auth: RequestAuth | null, id: string, token?: string): Promise<ReportDetail> {
      const { row, viewer, actor } = await requireReader(auth, id, token);
      return detailFor(row, viewer, actor);
    },

    /**
     * GET /reports/{id}/link-grant (issue 15): an e-mailed link's token (vendor or researcher, for
     * this report) for a grant of the same audience that lives LINK_GRANT_SECONDS and never past
     * the link. Anything else, expired or forged included: 404, as a read with it would answer.
     */
    linkGrant(id: string, token: string) {
      const claims = previewTokens.verify(token);
      if (
        !claims ||
        claims.reportId !== id ||
        (claims.audience !== "vendor" && claims.audience !== "researcher")
      )
        throw new AppError("not_found", { message: REPORT_NOT_FOUND });
      const left = Math.floor((claims.expiresAt.getTime() - Date.now()) / 1000);
      const grant = previewTokens.sign(id, claims.audience, Math.max(1, Math.min(LINK_GRANT_SECONDS, left)));
      const expiresAt = previewTokens.verify(grant)?.expiresAt ?? claims.expiresAt;
      return { token: grant, audience: claims.audience, expires_at: expiresAt.toISOString() };
    },

    /**
     * POST /reports/{id}/attachments: a proof-of-concept file from the report's researcher or staff
     * (ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_REPORT). Counted under the report's row lock, so two
     * uploads at once never make a sixth.
     */
    async addAttachment(
      auth: RequestAuth | null,
      id: string,
      upload: { filename: string; mimetype: string; file: Readable },
      uploadToken?: string,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportAttachment> {
      const row = await requireReport(id);
      const claims = previewTokens.verify(uploadToken);
      const byToken = claims?.audience === "uploader" && claims.reportId === row.id;
      const viewer = auth ? viewerOf(auth, row) : null;
      if (!viewer && !byToken) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
      if (viewer === "vendor") throw new AppError("forbidden", { message: ATTACHMENT_MESSAGES.notAllowed });
      if (!isAcceptedAttachmentName(upload.filename)) {
        upload.file.resume();
        throw new AppError("validation", { fieldErrors: { file: [ATTACHMENT_MESSAGES.type] } });
      }
      const uploaderId = viewer && auth ? auth.user.id : row.submitted_by_user_id;
      return storeAttachment(
        id,
        upload,
        uploaderId,
        { kind: "proof", perReport: ATTACHMENTS_PER_REPORT, tooMany: ATTACHMENT_MESSAGES.tooMany },
        idempotency,
      );
    },

    /**
     * Before reading a fix zip (POST /reports/{id}/fix-attachments): the owning vendor, signed in or
     * holding its e-mailed link's token, while the report awaits a fix. Staff and the researcher may
     * read the report but not attach a fix (403); anyone else gets 404, a report in another state 409.
     */
    async requireFixUploader(auth: RequestAuth | null, id: string, token?: string): Promise<FixUploader> {
      if (!auth && token === undefined) throw new AppError("unauthenticated");
      const row = await requireReport(id);
      const { userId } = vendorSideOf(auth, row, token);
      requireAwaitingFix(row, "vendor");
      return { reportId: row.id, uploaderId: userId, actor: "vendor" };
    },

    /** The same for the holder of the PIN credential (POST /report-previews/{id}/fix-attachments). */
    async requirePinFixUploader(id: string, credential: string | undefined): Promise<FixUploader> {
      const row = await requirePinContact(id, credential);
      requireAwaitingFix(row, "pin_contact");
      return { reportId: row.id, uploaderId: null, actor: "pin_contact" };
    },

    /**
     * A fix zip (issue 7): a .zip name and the zip signature, 20 MB, FIX_ATTACHMENTS_PER_REPORT per
     * report, stored like the proof of concept; the state is checked again under the report's lock.
     */
    async addFixAttachment(
      uploader: FixUploader,
      upload: { filename: string; mimetype: string; file: Readable },
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportAttachment> {
      if (!isFixArchiveName(upload.filename)) {
        upload.file.resume();
        throw new AppError("validation", { fieldErrors: { file: [FIX_UPLOAD_MESSAGES.type] } });
      }
      return storeAttachment(
        uploader.reportId,
        upload,
        uploader.uploaderId,
        {
          kind: "fix",
          perReport: FIX_ATTACHMENTS_PER_REPORT,
          tooMany: FIX_UPLOAD_MESSAGES.tooMany,
          accept: async (tempPath) =>
            startsWithZipSignature(await options.uploads.head(tempPath, ZIP_SIGNATURE.length))
              ? null
              : FIX_UPLOAD_MESSAGES.notZip,
          whileLocked: (row) => requireAwaitingFix(row, uploader.actor),
        },
        idempotency,
      );
    },

    /**
     * GET /reports/{id}/attachments/{attachmentId} (and the PIN preview's): the bytes, to whoever may
     * read the report; the route serves them as a download, never inline.
     */
    async openAttachment(
      auth: RequestAuth | null,
      id: string,
      attachmentId: string,
      access: { token?: string | undefined } | { pinCredential: string | undefined },
    ) {
      if ("pinCredential" in access) await requirePinContact(id, access.pinCredential);
      else await requireReader(auth, id, access.token);
      const { rows } = await database.sql.query<AttachmentRow & { storage: StorageKind | "disk" }>(
        `select id::text, kind, filename, content_type, size_bytes, created_at, storage from report_attachments
         where report_id = $1 and id::text = $2`,
        [id, attachmentId.toLowerCase()],
      );
      const found = rows[0];
      // A row still `disk` is one the start could not move (its file was missing or damaged): as before, 404.
      const store =
        found?.storage === options.attachments.kind
          ? options.attachments
          : found && found.storage !== "disk"
            ? options.attachmentStores?.[found.storage]
            : undefined;
      const stream = found && store ? await store.open({ reportId: id, id: found.id }) : null;
      if (!found || !stream) throw new AppError("not_found", { message: "Attachment not found." });
      return { filename: found.filename, size: found.size_bytes, stream };
    },

    /**
     * POST /report-previews/{id}/pin (PRODUCT.md §2): the PIN the product's contact received. Right:
     * a preview credential for this report (PIN_CREDENTIAL_SECONDS). Wrong: 422 with the tries left;
     * the PIN_MAX_ATTEMPTS-th wrong one locks it for PIN_LOCK_SECONDS (429 with Retry-After), during
     * which even the right PIN is refused. Limited per IP too.
     */
    async checkPin(
      id: string,
      pin: string,
      client: ClientInfo,
    ): Promise<{ credential: string; expiresAt: Date }> {
      await limit(`report-pin:ip:${client.ip}`, PIN_RATE_LIMIT, "PIN attempts");
      const outcome = await database.sql.transaction(async (tx) => {
        const found = await pins.lockPin(id, tx);
        if (!found) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
        if (found.locked_seconds !== null && found.locked_seconds > 0)
          return { kind: "locked" as const, seconds: found.locked_seconds, until: found.locked_until };
        const right = await argon2Verify(found.pin_hash, pin).catch(() => false);
        if (right) {
          if (found.failed_attempts > 0) await pins.clearPinFailures(id, tx);
          return { kind: "right" as const };
        }
        const wrong = await pins.recordWrongPin(id, PIN_MAX_ATTEMPTS, PIN_LOCK_SECONDS, tx);
        return wrong.locked
          ? { kind: "locked" as const, seconds: PIN_LOCK_SECONDS, until: null }
          : { kind: "wrong" as const, attemptsLeft: wrong.attemptsLeft };
      });
      if (outcome.kind === "locked") {
        const seconds = Math.max(1, Math.ceil(outcome.seconds));
        const until = outcome.until ? new Date(outcome.until) : new Date(Date.now() + seconds * 1000);
        throw new AppError("rate_limited", {
          message: REPORT_MESSAGES.pinLocked(until, seconds),
          headers: { "retry-after": String(seconds) },
        });
      }
      if (outcome.kind === "wrong")
        throw new AppError("validation", {
          fieldErrors: { pin: [REPORT_MESSAGES.wrongPin(outcome.attemptsLeft)] },
        });
      return {
        credential: previewTokens.sign(id, "pin_contact", PIN_CREDENTIAL_SECONDS),
        expiresAt: new Date(Date.now() + PIN_CREDENTIAL_SECONDS * 1000),
      };
    },

    /** GET /report-previews/{id}: the report as its vendor sees it, for the holder of the PIN credential. */
    async getPinPreview(id: string, credential: string | undefined): Promise<ReportDetail> {
      const row = await requirePinContact(id, credential);
      return detailFor(row, "vendor", "pin_contact");
    },

    /**
     * POST /report-previews/{id}/patch: the PIN contact's fix — awaiting_fix → fix_pending through the
     * domain's TRANSITIONS (actor pin_contact), one timeline event with the notes, in one transaction.
     */
    async submitPinPatch(
      id: string,
      credential: string | undefined,
      patch: PinPatchBody,
    ): Promise<ReportDetail> {
      await requirePinContact(id, credential);
      await database.sql.transaction(async (tx) => {
        const row = await requireReport(id, tx, true);
        const result = transitionOf(row.status, "submit_fix", { actor: "pin_contact" });
        if (!result.ok) throw new AppError("conflict", { message: result.message });
        await queries.updateReport(
          row.id,
          result.to,
          { fixed_version: patch.fixed_version, fix_url: patch.fix_url, fix_diff: patch.diff ?? null },
          {},
          tx,
        );
        await queries.insertEvent(
          {
            reportId: row.id,
            actorUserId: null,
            action: "submit_fix",
            fromState: row.status,
            toState: result.to,
            note: patch.notes,
          },
          tx,
        );
      });
      const after = await requireReport(id);
      await mailAfterFix(after);
      return detailFor(after, "vendor", "pin_contact");
    },

    /**
     * The deadline job (PRODUCT.md §2, issue 7): reports awaiting a fix whose deadline is within
     * DEADLINE_NEAR_DAYS get one "deadline near" e-mail; those whose deadline passed are flagged once
     * (deadline_passed_at, a `deadline_passed` timeline event) and their vendor contact is e-mailed.
     * Claims are single UPDATEs, so concurrent runs never repeat one. `now` is the job's clock.
     */
    async runDeadlineJob(now: Date = new Date()): Promise<{ near: number; passed: number }> {
      const passed = await database.sql.transaction(async (tx) => {
        const ids = await pins.flagPassedDeadlines(now, tx);
        for (const reportId of ids) {
          await queries.insertEvent(
            {
              reportId,
              actorUserId: null,
              action: "deadline_passed",
              fromState: "awaiting_fix",
              toState: "awaiting_fix",
              note: null,
            },
            tx,
          );
          await recordEvent(
            await requireReport(reportId, tx),
            {
              type: "report.deadline_passed",
              action: "deadline_passed",
              fromState: "awaiting_fix",
              toState: "awaiting_fix",
            },
            tx,
          );
        }
        return ids;
      });
      const near = await database.sql.transaction(async (tx) => {
        const ids = await pins.claimNearDeadlines(now, DEADLINE_NEAR_DAYS, tx);
        for (const reportId of ids) {
          await recordEvent(
            await requireReport(reportId, tx),
            {
              type: "report.deadline_near",
              action: "deadline_near",
              fromState: "awaiting_fix",
              toState: "awaiting_fix",
            },
            tx,
          );
        }
        return ids;
      });
      for (const [ids, template] of [
        [near, "report_deadline_near"],
        [passed, "report_deadline_passed"],
      ] as const) {
        for (const reportId of ids) {
          const row = await requireReport(reportId);
          const recipient = await vendorRecipient(row);
          if (!recipient) continue;
          await mail(recipient.to, {
            template,
            name: recipient.name,
            reportTitle: row.title,
            productName: row.product_name,
            deadline: isoOrNull(row.fix_deadline_at) ?? "",
            url: recipient.url,
          });
        }
      }
      return { near: near.length, passed: passed.length };
    },

    /** Runs the deadline job now and every `intervalSeconds` (unref'd) until stopDeadlineJob. */
    startDeadlineJob(intervalSeconds: number, onError: (error: unknown) => void) {
      if (deadlineTimer) return;
      const run = () => {
        if (deadlineRun) return;
        deadlineRun = service
          .runDeadlineJob()
          .then(() => undefined)
          .catch(onError)
          .finally(() => {
            deadlineRun = null;
          });
      };
      deadlineTimer = setInterval(run, intervalSeconds * 1000);
      deadlineTimer.unref();
      run();
    },

    async stopDeadlineJob() {
      if (deadlineTimer) clearInterval(deadlineTimer);
      deadlineTimer = null;
      await deadlineRun;
    },

    async listResearcherReports(
      auth: RequestAuth,
      tab: ResearcherReportTab,
      request: PageRequest,
    ): Promise<ReportPage> {
      // The access level guarantees a researcher profile.
      const researcherId = await queries.researcherIdOf(auth.user.id);
      if (researcherId === null) throw new AppError("forbidden");
      return page({ researcherId, statuses: RESEARCHER_REPORT_TABS[tab] }, request);
    },

    async listVendorReports(
      auth: RequestAuth,
      tab: VendorReportTab,
      request: PageRequest,
    ): Promise<ReportPage> {
      if (!auth.user.vendor) throw new AppError("forbidden");
      return page({ vendorId: auth.user.vendor.id, statuses: VENDOR_REPORT_TABS[tab] }, request);
    },

    async listStaffReports(
      status: ReportState | undefined,
      request: PageRequest,
      deadlinePassed = false,
    ): Promise<ReportPage> {
      return page({ ...(status && { statuses: [status] }), deadlinePassed }, request, true);
    },

    async getStaffReport(id: string): Promise<ReportDetail> {
      return detailFor(await requireReport(id), "staff");
    },

    /**
     * POST /staff/reports/{id}/transitions: one step of the lifecycle, refused (409) from a state
     * the domain's TRANSITIONS do not allow; the state change and its timeline event share a transaction.
     */
    async transition(auth: RequestAuth, id: string, body: Record<string, unknown>): Promise<ReportDetail> {
      const head = TransitionHead.safeParse(body);
      if (!head.success) throw validationErrorOf(head.error.issues);
      const { action, note } = head.data;
      let validation: ReportValidation | null = null;
      let reason: RejectionReason | null = null;
      if (action === "validate") {
        const parsed = ReportValidation.safeParse(body);
        if (!parsed.success) throw validationErrorOf(parsed.error.issues);
        validation = parsed.data;
      }
      if (action === "reject") {
        const parsed = ReportRejection.safeParse(body);
        if (!parsed.success) throw validationErrorOf(parsed.error.issues);
        reason = parsed.data.reason;
      }

      const before = await database.sql.transaction(async (tx) => {
        const row = await requireReport(id, tx, true);
        const result = transitionOf(row.status, action, {
          actor: "staff",
          fixDeadlineAt: row.fix_deadline_at === null ? null : new Date(row.fix_deadline_at),
        });
        if (!result.ok)
          throw new AppError(result.refusal === "actor" ? "forbidden" : "conflict", {
            message: result.message,
          });
        const changes: ReportChanges = {};
        const stamps: ReportStamps = {};
        let publicChange = false;
        let pin: { pin: string; contactEmail: string } | null = null;
        switch (action) {
          case "reject":
            changes.rejection_reason = reason;
            break;
          case "validate":
            Object.assign(changes, validationChanges(validation!));
            stamps.validated_at = true;
            break;
          case "notify_vendor":
            stamps.vendor_notified_at = true;
            stamps.fix_deadline_days = row.fix_deadline_days;
            // No active program: the product's contact gets the PIN preview (PRODUCT.md §2).
            if (!hasActiveProgram(row) && row.product_contact_email) {
              const plain = String(randomInt(0, 1_000_000)).padStart(6, "0");
              await pins.savePin(
                row.id,
                await argon2Hash(plain, PIN_HASH_OPTIONS),
                row.product_contact_email,
                tx,
              );
              pin = { pin: plain, contactEmail: row.product_contact_email };
            }
            break;
          case "verify_fix":
            stamps.fixed_at = true;
            break;
          case "publish":
          case "publish_unpatched":
            changes.vulnerability_id = await publishRecord(row, action === "publish", tx);
            stamps.published_at = true;
            publicChange = true;
            break;
        }
        await queries.updateReport(row.id, result.to, changes, stamps, tx);
        await queries.insertEvent(
          {
            reportId: row.id,
            actorUserId: auth.user.id,
            action,
            fromState: row.status,
            toState: result.to,
            note,
          },
          tx,
        );
        await recordEvent(
          row,
          {
            type: action === "validate" ? "report.validated" : "report.status_changed",
            action,
            fromState: row.status,
            toState: result.to,
          },
          tx,
        );
        return { row, publicChange, pin };
      });

      if (before.publicChange) await options.onPublicChange?.();
      const after = await requireReport(id);
      await mailAfter(after, action, note, before.pin);
      return detailFor(after, "staff");
    },

    /**
     * The owning vendor's fix (PRODUCT.md §2 "vendor submits fix"): awaiting_fix → fix_pending, signed
     * in or with the e-mailed link's token (then the timeline names no user).
     */
    async submitFix(
      auth: RequestAuth | null,
      id: string,
      fix: { fixed_version: string; notes?: string | undefined; fix_url: string | null },
      token?: string,
    ): Promise<ReportDetail> {
      if (!auth && token === undefined) throw new AppError("unauthenticated");
      const byToken = await database.sql.transaction(async (tx) => {
        const row = await requireReport(id, tx, true);
        const { userId } = vendorSideOf(auth, row, token);
        const result = transitionOf(row.status, "submit_fix", { actor: "vendor" });
        if (!result.ok) throw new AppError("conflict", { message: result.message });
        await queries.updateReport(
          row.id,
          result.to,
          { fixed_version: fix.fixed_version, fix_url: fix.fix_url },
          {},
          tx,
        );
        await queries.insertEvent(
          {
            reportId: row.id,
            actorUserId: userId,
            action: "submit_fix",
            fromState: row.status,
            toState: result.to,
            note: fix.notes ? fix.notes : null,
          },
          tx,
        );
        await recordEvent(
          row,
          { type: "report.status_changed", action: "submit_fix", fromState: row.status, toState: result.to },
          tx,
        );
        return userId === null;
      });
      const after = await requireReport(id);
      await mailAfterFix(after);
      // A link holder reads as the vendor without actions, as GET /reports/{id}?token= answers.
      return detailFor(after, "vendor", byToken ? null : "vendor");
    },

    /**
     * A comment by the researcher, the owning vendor or staff, signed in; or by the holder of an
     * e-mail link's token, as its audience (a researcher link writes as the report's researcher, a
     * vendor link as the vendor's contact, with no author account). Only staff write staff-only ones.
     */
    async addComment(
      auth: RequestAuth | null,
      id: string,
      comment: NewComment,
      token?: string,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportDetail> {
      const { row, viewer, actor } = await requireReader(auth, id, token);
      if (comment.visibility === "staff" && viewer !== "staff")
        throw new AppError("forbidden", { message: COMMENT_MESSAGES.staffOnly });
      const author =
        actor === null ? (viewer === "researcher" ? row.researcher_user_id : null) : auth!.user.id;
      return insertComment(row, author, comment, { viewer, actor, idempotency });
    },

    /** POST /report-previews/{id}/comments: the PIN contact comments as the vendor (no author account). */
    async addPinComment(
      id: string,
      credential: string | undefined,
      comment: NewComment,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportDetail> {
      const row = await requirePinContact(id, credential);
      if (comment.visibility === "staff")
        throw new AppError("forbidden", { message: COMMENT_MESSAGES.staffOnly });
      return insertComment(row, null, comment, { viewer: "vendor", actor: "pin_contact", idempotency });
    },
  };
  return service;
}

/** A first display name for an account made from an e-mail: its local part. */
function nameOf(email: string): string {
  return email.split("@")[0]?.slice(0, 100) || "Researcher";
}

export type ReportService = ReturnType<typeof createReportService>;
