import {
  NO_VENDOR_CONTACT_MESSAGE,
  parseCvssVector,
  type ReportDetail,
  type ReportTransitionBody,
  type ReportValidation,
  transitionOf,
  vulnerabilitySlug,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { updateInferredFixes } from "../../db/infer-fixed.ts";
import { AppError } from "../../errors.ts";
import type { RequestAuth } from "../../http/access.ts";
import { requireCveFree } from "./cve-queries.ts";
import { duplicateTargetOf } from "./duplicate-service.ts";
import { createPinQueries } from "./pin-queries.ts";
import { newPin } from "./preview-service.ts";
import { createPublishQueries } from "./publish-queries.ts";
import { hasActiveProgram, type ReportContext } from "./report-context.ts";
import type { NewPin, ReportMail } from "./report-mail.ts";
import type { ReportChanges, ReportRow, ReportStamps } from "./report-queries.ts";

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

export interface TriageOptions {
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
}

/** The lifecycle's steps (PRODUCT.md §2): staff transitions, publishing the record, the vendor's fix. */
export function createTriageService(
  { database, queries, requireReport, detailFor, recordEvent, vendorSideOf }: ReportContext,
  { reportMail, onPublicChange }: TriageOptions & { reportMail: ReportMail },
) {
  const pins = createPinQueries(database.sql);
  const publishing = createPublishQueries(database.sql);

  /**
   * Creates or updates the public record of a report (PRODUCT.md §2 "publishing"), credits its
   * researcher and bumps the data version so public caches refresh. Unpatched: no fixed version.
   */
  async function publishRecord(row: ReportRow, patched: boolean, tx: SqlRunner): Promise<string> {
    const vulnerabilityId = row.vulnerability_id ?? crypto.randomUUID();
    const fixedIn = patched ? row.fixed_version : null;
    await publishing.writeVulnerability(
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
    // Unfixed, yet perhaps behind the product's current version: fixed in a later version (issue 17).
    await updateInferredFixes(tx, { vulnerabilityId });
    await bumpDataVersion(tx);
    return vulnerabilityId;
  }

  return {
    /**
     * POST /staff/reports/{id}/transitions: one step of the lifecycle, refused (409) from a state
     * the domain's TRANSITIONS do not allow; the state change and its timeline event share a transaction.
     */
    async transition(auth: RequestAuth, id: string, body: ReportTransitionBody): Promise<ReportDetail> {
      const { action, note } = body;
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
        let pin: NewPin | null = null;
        switch (body.action) {
          case "reject":
            changes.rejection_reason = body.reason;
            Object.assign(changes, await duplicateTargetOf(row, body.reason, body, tx));
            break;
          case "validate":
            Object.assign(changes, validationChanges(body));
            // A CVE id staff recorded before validating stays unless another is given (issue 19).
            changes.cve = body.cve ?? row.cve;
            if (changes.cve !== null && changes.cve !== row.cve) await requireCveFree(tx, changes.cve, row);
            stamps.validated_at = true;
            break;
          case "notify_vendor":
            // Nobody to tell: the deadline must not start, nor the report look notified (issue 19).
            if (!hasActiveProgram(row) && !row.product_contact_email)
              throw new AppError("conflict", { message: NO_VENDOR_CONTACT_MESSAGE });
            stamps.vendor_notified_at = true;
            stamps.fix_deadline_days = row.fix_deadline_days;
            // No active program: the product's contact gets the PIN preview (PRODUCT.md §2).
            if (!hasActiveProgram(row) && row.product_contact_email) {
              const { plain, hash } = await newPin();
              await pins.savePin(row.id, hash, row.product_contact_email, tx);
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

      if (before.publicChange) await onPublicChange?.();
      const after = await requireReport(id);
      await reportMail.afterTransition(after, action, note, before.pin);
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
      await reportMail.afterFix(after);
      // A link holder reads as the vendor without actions, as GET /reports/{id}?token= answers.
      return detailFor(after, "vendor", byToken ? null : "vendor");
    },
  };
}
