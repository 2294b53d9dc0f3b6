import {
  actionsFrom,
  OPEN_REPORT_STATES,
  parseCvssVector,
  REJECTION_REASONS,
  RESEARCHER_REPORT_TABS,
  RejectionReason,
  ReportAction,
  type ReportActor,
  type ReportState,
  ReportSubmission,
  ReportValidation,
  type ResearcherReportTab,
  SignedOutReportSubmission,
  transitionOf,
  VENDOR_REPORT_TABS,
  VENDOR_VISIBLE_REPORT_STATES,
  type VendorReportTab,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import { z } from "zod";
import type { Database, SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { vulnerabilitySlug } from "../../db/import.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { MailTemplate } from "../../mail/templates.ts";
import type { ClientInfo, RequestAuth } from "../auth/service.ts";
import type { CaptchaService } from "../captcha/service.ts";
import {
  type CommentRow,
  createReportQueries,
  type EventRow,
  type ReportChanges,
  type ReportListRow,
  type ReportRow,
  type ReportStamps,
} from "./queries.ts";
import type { ReportDetail, ReportListItem, ReportPage, SubmittedReport } from "./schemas.ts";

export const REPORT_NOT_FOUND = "Report not found.";

/** Anonymous submission: [hits, window in seconds] per IP and per e-mail (decision 008). */
export const REPORT_RATE_LIMITS = {
  submitIp: [10, 600],
  submitEmail: [5, 600],
} as const satisfies Record<string, readonly [number, number]>;

export const COMMENT_MESSAGES = {
  staffOnly: "Only staff can write staff-only comments.",
} as const;

/** Who reads a report: the three parties of PRODUCT.md §2. Anyone else gets 404. */
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
const Rejection = z.object({ reason: RejectionReason });

const iso = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

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
    fix_deadline_at: iso(row.fix_deadline_at),
    created_at: iso(row.created_at) ?? "",
    updated_at: iso(row.updated_at) ?? "",
    ...(staff && { possible_duplicate_of: row.possible_duplicate_of }),
  };
}

function detailOf(row: ReportRow, viewer: Viewer, events: EventRow[], comments: CommentRow[]): ReportDetail {
  const actor: ReportActor | null = viewer === "staff" ? "staff" : viewer === "vendor" ? "vendor" : null;
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
    rejection_reason: row.rejection_reason,
    vendor_notified_at: iso(row.vendor_notified_at),
    fix_deadline_at: iso(row.fix_deadline_at),
    fixed_at: iso(row.fixed_at),
    validated_at: iso(row.validated_at),
    published_at: iso(row.published_at),
    created_at: iso(row.created_at) ?? "",
    updated_at: iso(row.updated_at) ?? "",
    public_path:
      row.status === "published" && row.vulnerability_slug ? publicPathOf(row, row.vulnerability_slug) : null,
    actions: actor ? actionsFrom(row.status, actor) : [],
    timeline: events.map((event) => ({
      action: event.action,
      from_state: event.from_state,
      to_state: event.to_state,
      note: event.note,
      ...(viewer === "staff" && {
        actor:
          event.actor_user_id === null ? null : { id: event.actor_user_id, name: event.actor_name ?? "" },
      }),
      created_at: iso(event.created_at) ?? "",
    })),
    comments: comments.map((comment) => ({
      id: comment.id,
      body: comment.body,
      visibility: comment.visibility,
      author: comment.author_name === null ? null : { name: comment.author_name },
      created_at: iso(comment.created_at) ?? "",
    })),
    ...(viewer === "staff" && {
      reporter_email: row.reporter_email,
      possible_duplicate_of: row.possible_duplicate_of,
    }),
  };
}

export interface ReportServiceOptions {
  mailer: Mailer;
  appUrl: string;
  captcha: CaptchaService;
  /** The shared fixed-window counter of the auth module (rate_limits). */
  hitRateLimit(key: string, windowSeconds: number): Promise<{ hits: number; secondsLeft: number }>;
  /** Multiplies the budgets of REPORT_RATE_LIMITS (AUTH_RATE_LIMIT_FACTOR). */
  rateLimitFactor?: number;
  /** The auth module's magic link: signs a signed-out reporter in to follow their report. */
  sendMagicLink(email: string, client: ClientInfo): Promise<void>;
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
  /** A mail that could not be queued after the report was stored: logged, never a failed request. */
  onMailError?: (error: unknown) => void;
}

export function createReportService(database: Database, options: ReportServiceOptions) {
  const queries = createReportQueries(database.sql);
  const { appUrl, captcha } = options;

  async function limit(key: string, [budget, windowSeconds]: readonly [number, number]) {
    const maxHits = Math.max(1, Math.floor(budget * (options.rateLimitFactor ?? 1)));
    const { hits, secondsLeft } = await options.hitRateLimit(key, windowSeconds);
    if (hits > maxHits) {
      throw new AppError("rate_limited", {
        message: `Too many reports. Please try again in ${secondsLeft} seconds.`,
        headers: { "retry-after": String(secondsLeft) },
      });
    }
  }

  async function mail(to: string | null, template: MailTemplate) {
    if (!to) return;
    try {
      await options.mailer.enqueue(to, template);
    } catch (error) {
      options.onMailError?.(error);
    }
  }

  const reportUrl = (id: string) => `${appUrl}/researchers/reports/${id}/preview`;

  /**
   * E-mail after a transition: the researcher hears of rejected, validated and published, the
   * owning vendor of its notification (issue 7 lists more steps).
   */
  async function mailAfter(row: ReportRow, action: ReportAction, note: string | null) {
    const base = { name: row.researcher_name ?? "", reportTitle: row.title };
    if (action === "reject") {
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
    } else if (action === "notify_vendor" && row.product_vendor_id !== null) {
      const vendor = await queries.vendorContact(row.product_vendor_id);
      await mail(vendor?.contact_email ?? null, {
        template: "report_vendor_notified",
        name: vendor?.vendor_name ?? "",
        reportTitle: row.title,
        productName: row.product_name,
        deadline: iso(row.fix_deadline_at) ?? "",
        url: `${appUrl}/vdp/vulnerabilities/${row.id}/preview`,
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

  async function detailFor(row: ReportRow, viewer: Viewer): Promise<ReportDetail> {
    const [events, comments] = await Promise.all([
      queries.listEvents(row.id),
      queries.listComments(
        row.id,
        viewer === "staff" ? ["staff", "vendor_researcher"] : ["vendor_researcher"],
      ),
    ]);
    return detailOf(row, viewer, events, comments);
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

  return {
    /**
     * POST /reports (PRODUCT.md §3): a signed-in researcher, or a signed-out reporter with an e-mail
     * and a solved captcha. Answers only after the report and its first timeline event are committed.
     */
    async submitReport(
      auth: RequestAuth | null,
      body: Record<string, unknown>,
      client: ClientInfo,
    ): Promise<SubmittedReport> {
      if (!auth) await limit(`report:ip:${client.ip}`, REPORT_RATE_LIMITS.submitIp);
      const parsed = (auth ? ReportSubmission : SignedOutReportSubmission).safeParse(body);
      const captchaPayload = typeof body.captcha === "string" ? body.captcha : null;
      if (!parsed.success) {
        const issues: { path: PropertyKey[]; message: string }[] = [...parsed.error.issues];
        if (!auth && captcha.enabled && !captchaPayload)
          issues.push({ path: ["captcha"], message: captcha.requiredMessage });
        throw validationErrorOf(issues);
      }
      const form = parsed.data;
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
        return { id, name, accountCreated, productCreated: product.created };
      });

      if (stored.productCreated) await options.onPublicChange?.();
      const row = await requireReport(stored.id);
      await mail(email, {
        template: "report_received",
        name: stored.name,
        reportTitle: row.title,
        detail: null,
        url: reportUrl(row.id),
      });
      let magicLinkSent = false;
      if (!auth) {
        try {
          await options.sendMagicLink(email, client);
          magicLinkSent = true;
        } catch (error) {
          // The report is stored: a sign-in link refused by its own limit is not the reporter's failure.
          if (!(error instanceof AppError && error.code === "rate_limited")) options.onMailError?.(error);
        }
      }
      return {
        id: row.id,
        status: row.status,
        title: row.title,
        created_at: iso(row.created_at) ?? "",
        account_created: stored.accountCreated,
        magic_link_sent: magicLinkSent,
      };
    },

    /** GET /reports/{id}: the researcher who reported it, staff, or the owning vendor from validation on. */
    async getReport(auth: RequestAuth, id: string): Promise<ReportDetail> {
      const row = await requireReport(id);
      const viewer = viewerOf(auth, row);
      if (!viewer) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
      return detailFor(row, viewer);
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

    async listStaffReports(status: ReportState | undefined, request: PageRequest): Promise<ReportPage> {
      return page(status ? { statuses: [status] } : {}, request, true);
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
        const parsed = Rejection.safeParse(body);
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
        return { row, publicChange };
      });

      if (before.publicChange) await options.onPublicChange?.();
      const after = await requireReport(id);
      await mailAfter(after, action, note);
      return detailFor(after, "staff");
    },

    /** The owning vendor's fix (PRODUCT.md §2 "vendor submits fix"): awaiting_fix → fix_pending. */
    async submitFix(
      auth: RequestAuth,
      id: string,
      fix: { fixed_version: string; notes?: string | undefined },
    ): Promise<ReportDetail> {
      await database.sql.transaction(async (tx) => {
        const row = await requireReport(id, tx, true);
        if (viewerOf(auth, row) !== "vendor" || isStaff(auth))
          throw new AppError("not_found", { message: REPORT_NOT_FOUND });
        const result = transitionOf(row.status, "submit_fix", { actor: "vendor" });
        if (!result.ok) throw new AppError("conflict", { message: result.message });
        await queries.updateReport(row.id, result.to, { fixed_version: fix.fixed_version }, {}, tx);
        await queries.insertEvent(
          {
            reportId: row.id,
            actorUserId: auth.user.id,
            action: "submit_fix",
            fromState: row.status,
            toState: result.to,
            note: fix.notes ? fix.notes : null,
          },
          tx,
        );
      });
      return detailFor(await requireReport(id), "vendor");
    },

    /** A comment by the researcher, the owning vendor or staff; only staff write staff-only ones. */
    async addComment(
      auth: RequestAuth,
      id: string,
      comment: { body: string; visibility: "staff" | "vendor_researcher" },
    ): Promise<ReportDetail> {
      const row = await requireReport(id);
      const viewer = viewerOf(auth, row);
      if (!viewer) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
      if (comment.visibility === "staff" && viewer !== "staff")
        throw new AppError("forbidden", { message: COMMENT_MESSAGES.staffOnly });
      await queries.insertComment({
        reportId: row.id,
        authorUserId: auth.user.id,
        body: comment.body,
        visibility: comment.visibility,
      });
      return detailFor(row, viewer);
    },
  };
}

/** A first display name for an account made from an e-mail: its local part. */
function nameOf(email: string): string {
  return email.split("@")[0]?.slice(0, 100) || "Researcher";
}

export type ReportService = ReturnType<typeof createReportService>;
