import { randomBytes } from "node:crypto";
import {
  DUPLICATE_CANDIDATE_REPORT_STATES,
  isUuid,
  ReportSubmissionBody,
  SignedOutReportSubmissionBody,
  type SubmittedReport,
} from "@pressguard/domain";
import { z } from "zod";
import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import type { IdempotentAttempt } from "../../http/idempotency.ts";
import type { MagicLinkOutcome } from "../auth/service.ts";
import type { CaptchaService } from "../captcha/service.ts";
import { duplicateCandidates } from "./duplicate-candidates.ts";
import { UPLOAD_TOKEN_SECONDS } from "./preview-tokens.ts";
import { type RateLimiter, REPORT_RATE_LIMITS } from "./rate-limits.ts";
import type { ReportContext } from "./report-context.ts";
import type { ReportMail } from "./report-mail.ts";
import type { ReportRow } from "./report-queries.ts";
import { createSubmissionQueries } from "./submission-queries.ts";

const VERIFY_EMAIL_MESSAGE = "Verify your e-mail address before submitting a report.";

export const EMBED_MESSAGES = {
  unknownKey: "This reporting form is not available: the vendor key is unknown.",
  notTheVendors: (vendorName: string) =>
    `This form reports only on ${vendorName}'s products with a disclosure program. Report other software on the Pressguard report page.`,
} as const;

export interface SubmissionOptions {
  captcha: CaptchaService;
  /** The auth module's magic link: signs a signed-out reporter in to follow their report. */
  sendMagicLink(email: string, client: ClientInfo): Promise<MagicLinkOutcome>;
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
  /** A mail that could not be queued after the report was stored: logged, never a failed request. */
  onMailError?: (error: unknown) => void;
}

/**
 * A first name for an account made from a signed-out report: a neutral one, never derived from the
 * address, since it is the public credit until the researcher names their profile (issue 19: the
 * address's local part was published, `anon.hunter`).
 */
function firstNameOfNewReporter(): string {
  return `Researcher ${randomBytes(3).toString("hex")}`;
}

/** Filing a report (PRODUCT.md §3): the form, the vendor's embedded form, the reporter's account. */
export function createSubmissionService(
  { database, queries, requireReport, previewTokens }: ReportContext,
  {
    reportMail,
    limit,
    captcha,
    sendMagicLink,
    onPublicChange,
    onMailError,
  }: SubmissionOptions & { reportMail: ReportMail; limit: RateLimiter },
) {
  const submissions = createSubmissionQueries(database.sql);
  /**
   * A signed-out body, with the captcha's answer required when the server asks for one: a body
   * missing it and other fields is told of all of them at once (the answer's own check is `verify`).
   */
  const signedOutBody = captcha.enabled
    ? SignedOutReportSubmissionBody.extend({
        captcha: z.string({ error: captcha.requiredMessage }).min(1, { error: captcha.requiredMessage }),
      })
    : SignedOutReportSubmissionBody;

  /**
   * A report from a vendor's embedded form (`/iframe/vendor?vendor={public key}`) names one of that
   * vendor's active programs, never another vendor's product or a lobby product: 404 for an unknown
   * key, 422 on the product otherwise.
   */
  async function requireEmbedProduct(key: string, form: { kind: string; product_slug: string }) {
    const vendor = isUuid(key) ? await submissions.embedVendor(key) : null;
    if (!vendor) throw new AppError("not_found", { message: EMBED_MESSAGES.unknownKey });
    if (!(await submissions.isActiveProgramOf(vendor.id, form.kind, form.product_slug)))
      throw new AppError("validation", {
        fieldErrors: { product_slug: [EMBED_MESSAGES.notTheVendors(vendor.vendor_name)] },
      });
  }

  /** A signed-out reporter's account: the e-mail's existing one, or a new one without a password. */
  async function reporterAccount(email: string, tx: SqlRunner) {
    const existing = await submissions.findUserByEmail(email, tx);
    if (existing) return { userId: existing.id, name: existing.name, accountCreated: false };
    const name = firstNameOfNewReporter();
    const created = await submissions.createPasswordlessUser(name, email, tx);
    if (created !== null) return { userId: created, name, accountCreated: true };
    // Created by a concurrent request in the meantime.
    const raced = await submissions.findUserByEmail(email, tx);
    if (!raced) throw new Error("the reporter's account vanished");
    return { userId: raced.id, name: raced.name, accountCreated: false };
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

  return {
    /**
     * POST /reports (PRODUCT.md §3): a signed-in researcher, or a signed-out reporter with an e-mail
     * and a solved captcha. Answers only after the report and its first timeline event are committed.
     */
    async submitReport(
      auth: RequestAuth | null,
      body: unknown,
      client: ClientInfo,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<SubmittedReport> {
      // PRODUCT.md: reports need a verified address (signed out, the magic link verifies it).
      if (auth && !auth.user.email_verified)
        throw new AppError("forbidden", { message: VERIFY_EMAIL_MESSAGE });
      if (auth) await limit(`report:user:${auth.user.id}`, REPORT_RATE_LIMITS.submitUser);
      else await limit(`report:ip:${client.ip}`, REPORT_RATE_LIMITS.submitIp);
      // The route only checks for an object: the rules depend on the caller.
      const parsed = (auth ? ReportSubmissionBody : signedOutBody).safeParse(body);
      if (!parsed.success) throw validationErrorOf(parsed.error.issues);
      const { captcha: captchaPayload, embed_key: embedKey, ...form } = parsed.data;
      if (embedKey !== undefined) await requireEmbedProduct(embedKey, form);
      const email = auth ? auth.user.email : (form.email ?? "").toLowerCase();
      if (!auth) await limit(`report:email:${email}`, REPORT_RATE_LIMITS.submitEmail);
      const solved = auth ? null : await captcha.verify(captchaPayload);

      const stored = await database.sql.transaction(async (tx) => {
        await captcha.spend(solved, tx);
        const { userId, name, accountCreated } = auth
          ? { userId: auth.user.id, name: auth.user.name, accountCreated: false }
          : await reporterAccount(email, tx);
        const researcherId = await submissions.ensureResearcher(userId, name, tx);
        const product = await submissions.findOrCreateProduct(
          { kind: form.kind, slug: form.product_slug, name: form.product_name },
          tx,
        );
        const duplicate = await submissions.findPossibleDuplicate(
          product.id,
          form.vulnerability_type,
          DUPLICATE_CANDIDATE_REPORT_STATES,
          tx,
        );
        const { candidates } = await duplicateCandidates(
          tx,
          {
            id: null,
            productId: product.id,
            typeCode: form.vulnerability_type,
            prefix: form.affected_version_prefix,
            version: form.affected_version,
          },
          () => "",
        );
        // Only a record of the same type is flagged: overlapping versions alone are too common.
        const record = candidates.find((one) => one.kind === "vulnerability" && one.match !== "versions");
        const id = await submissions.insertReport(
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
            possibleDuplicateOfVulnerability: record?.id ?? null,
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

      if (stored.productCreated) await onPublicChange?.();
      const row = stored.row;
      await reportMail.afterSubmission(row, email, stored.name);
      let magicLinkSent = false;
      let twoFactorRequired = false;
      if (!auth) {
        try {
          const outcome = await sendMagicLink(email, client);
          magicLinkSent = outcome === "sent";
          twoFactorRequired = outcome === "two_factor";
        } catch (error) {
          // The report is stored: a sign-in link refused by its own limit is not the reporter's failure.
          if (!(error instanceof AppError && error.code === "rate_limited")) onMailError?.(error);
        }
      }
      return submittedOf(row, stored.accountCreated, magicLinkSent, twoFactorRequired);
    },
  };
}
