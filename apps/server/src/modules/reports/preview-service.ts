import { randomInt } from "node:crypto";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { LINK_GRANT_SECONDS, type PinPatch, type ReportDetail, transitionOf } from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { ClientInfo } from "../../http/access.ts";
import { createPinQueries } from "./pin-queries.ts";
import { PIN_CREDENTIAL_SECONDS } from "./preview-tokens.ts";
import { PIN_RATE_LIMIT, type RateLimiter } from "./rate-limits.ts";
import { REPORT_NOT_FOUND, type ReportContext } from "./report-context.ts";
import type { ReportMail } from "./report-mail.ts";

const PIN_MAX_ATTEMPTS = 5;
const PIN_LOCK_SECONDS = 15 * 60;

const PIN_MESSAGES = {
  wrongPin: (left: number) =>
    `The PIN is not correct. ${left} ${left === 1 ? "try" : "tries"} left before the report is locked for 15 minutes.`,
  pinLocked: (until: Date, seconds: number) =>
    `Too many wrong PINs: the report is locked until ${until.toISOString().slice(11, 16)} UTC. Try again in ${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? "" : "s"}.`,
} as const;

/** The argon2id cost of PIN hashes: a 6-digit PIN is cheap to guess offline, so never a fast hash. */
const PIN_HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** A new 6-digit PIN and its hash (the notify_vendor step of a product with no program). */
export async function newPin(): Promise<{ plain: string; hash: string }> {
  const plain = String(randomInt(0, 1_000_000)).padStart(6, "0");
  return { plain, hash: await argon2Hash(plain, PIN_HASH_OPTIONS) };
}

/**
 * The previews of e-mailed links (PRODUCT.md §2): a link's grant, and the PIN preview of a report on
 * a product with no program, where its contact reads the report and submits a fix.
 */
export function createPreviewService(
  { database, queries, previewTokens, requireReport, requirePinContact, detailFor }: ReportContext,
  { reportMail, limit }: { reportMail: ReportMail; limit: RateLimiter },
) {
  const pins = createPinQueries(database.sql);

  return {
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
          message: PIN_MESSAGES.pinLocked(until, seconds),
          headers: { "retry-after": String(seconds) },
        });
      }
      if (outcome.kind === "wrong")
        throw new AppError("validation", {
          fieldErrors: { pin: [PIN_MESSAGES.wrongPin(outcome.attemptsLeft)] },
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
    async submitPinPatch(id: string, credential: string | undefined, patch: PinPatch): Promise<ReportDetail> {
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
      await reportMail.afterFix(after);
      return detailFor(after, "vendor", "pin_contact");
    },
  };
}
