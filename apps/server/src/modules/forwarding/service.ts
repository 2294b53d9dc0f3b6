import { randomBytes } from "node:crypto";
import {
  ForwardConfirmInput,
  ForwardEmailTargetInput,
  ForwardTargetUpdate,
  ForwardWebhookTargetInput,
} from "@pressguard/domain";
import type { z } from "zod";
import type { Database } from "../../db/client.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { sha256 } from "../auth/credentials.ts";
import { testPayload } from "./payload.ts";
import { createTargetQueries, queueTestDelivery, type TargetRow } from "./queries.ts";
import { assertPublicUrl, BlockedAddressError } from "./ssrf.ts";

const TARGET_NOT_FOUND = "Forwarding target not found.";
const WEBHOOKS_NEED_PREMIUM =
  "Webhooks are part of the premium plan. Upgrade on the subscription page to forward reports to your own system.";
/** How long an e-mail target's confirmation link works. */
const CONFIRMATION_DAYS = 7;
/** The public confirm endpoint: [hits, window in seconds] per IP, like the other token endpoints. */
const CONFIRM_RATE_LIMIT = [10, 600] as const;

export interface ForwardingServiceOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  appUrl: string;
  allowLoopback: boolean;
  hitRateLimit(key: string, windowSeconds: number): Promise<{ hits: number; secondsLeft: number }>;
  rateLimitFactor?: number;
  /** Wakes the worker for a new delivery (the test event, a redelivery). */
  onDeliveryQueued?: () => void;
  now?: () => Date;
}

interface Caller {
  id: number;
  vendor: { id: number } | null;
}

/** A target as the API answers it (never its secret). */
export function targetOf(row: TargetRow) {
  return {
    id: row.id,
    kind: row.kind,
    email: row.email,
    url: row.url,
    format: row.format,
    events: row.events,
    status: row.status,
    consecutive_failures: row.consecutive_failures,
    confirmed_at: isoOrNull(row.confirmed_at),
    disabled_at: isoOrNull(row.disabled_at),
    disabled_reason: row.disabled_reason,
    created_at: isoOrNull(row.created_at) as string,
  };
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw validationErrorOf(parsed.error.issues);
  return parsed.data;
}

/** The webhook signing secret: shown once, stored as given (the worker signs with it). */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

/** A confirmation token that carries its issue time; only its hash is stored, so the time cannot be forged. */
function newConfirmationToken(now: Date) {
  const token = `${randomBytes(24).toString("base64url")}.${Math.floor(now.getTime() / 1000).toString(36)}`;
  return { token, hash: sha256(token) };
}

function issuedAtOf(token: string): number | null {
  const seconds = Number.parseInt(token.split(".")[1] ?? "", 36);
  return Number.isFinite(seconds) ? seconds * 1000 : null;
}

/** Refuses a webhook URL that points inside the network (checked again on every send). */
export async function checkWebhookUrl(url: string, allowLoopback: boolean) {
  try {
    await assertPublicUrl(new URL(url), allowLoopback);
  } catch (error) {
    const message =
      error instanceof BlockedAddressError
        ? "The URL must point to a public internet address, not a private, loopback or link-local one."
        : "The URL's host name could not be resolved.";
    throw new AppError("validation", { fieldErrors: { url: [message] } });
  }
}

/** A target's delivery log, newest first, each delivery with its attempts. */
export async function deliveryPageOf(
  queries: ReturnType<typeof createTargetQueries>,
  targetId: number,
  page: PageRequest,
) {
  const { rows, total } = await queries.deliveries(targetId, page.perPage, (page.page - 1) * page.perPage);
  const attempts = await queries.attemptsOf(rows.map((row) => Number(row.id)));
  const data = rows.map((row) => {
    const own = attempts
      .filter((attempt) => Number(attempt.delivery_id) === Number(row.id))
      .map((attempt) => ({
        attempted_at: isoOrNull(attempt.attempted_at) as string,
        status_code: attempt.status_code,
        latency_ms: attempt.latency_ms,
        succeeded: attempt.succeeded,
        response_excerpt: attempt.response_excerpt,
      }));
    const last = own.at(-1);
    return {
      id: Number(row.id),
      event_id: row.event_uuid,
      event_type: row.event_type,
      status: row.status,
      attempts: row.attempts,
      manual: row.manual,
      created_at: isoOrNull(row.created_at) as string,
      finished_at: isoOrNull(row.finished_at),
      next_attempt_at: row.status === "pending" ? isoOrNull(row.next_attempt_at) : null,
      last_status_code: last?.status_code ?? null,
      last_latency_ms: last?.latency_ms ?? null,
      last_response_excerpt: last?.response_excerpt ?? null,
      attempt_log: own,
    };
  });
  return { data, pagination: paginationOf(page.path, page.query, page.page, page.perPage, total) };
}

/** Report forwarding targets (issue 8): every call is scoped to the caller's organisation. */
export function createForwardingService(options: ForwardingServiceOptions) {
  const { database } = options;
  const queries = createTargetQueries(database.sql);
  const now = options.now ?? (() => new Date());

  const vendorIdOf = (caller: Caller) => {
    if (!caller.vendor) throw new AppError("forbidden");
    return caller.vendor.id;
  };
  const ownerOf = (caller: Caller) => ({ vendorId: vendorIdOf(caller) });

  async function targetFor(caller: Caller, id: number): Promise<TargetRow> {
    const row = await queries.find(ownerOf(caller), id);
    if (!row) throw new AppError("not_found", { message: TARGET_NOT_FOUND });
    return row;
  }

  async function requirePremium(vendorId: number) {
    if ((await queries.planOf(vendorId))?.plan !== "premium")
      throw new AppError("forbidden", { message: WEBHOOKS_NEED_PREMIUM });
  }

  async function mailConfirmation(vendorId: number, email: string, token: string) {
    const vendorName = (await queries.planOf(vendorId))?.vendor_name ?? "A vendor";
    await options.mailer.enqueue(email, {
      template: "forwarding_confirm",
      vendorName,
      url: `${options.appUrl}/forwarding/confirm/${encodeURIComponent(token)}`,
    });
  }

  function queued(deliveryId: number) {
    options.onDeliveryQueued?.();
    return { delivery_id: deliveryId };
  }

  async function requireSendable(target: TargetRow, vendorId: number) {
    if (target.status === "pending")
      throw new AppError("conflict", {
        message: "Confirm the e-mail address first: it receives nothing before.",
      });
    if (target.status === "disabled") throw new AppError("conflict", { message: "Enable the target first." });
    if (target.kind === "webhook") await requirePremium(vendorId);
  }

  return {
    async listTargets(caller: Caller) {
      const vendorId = vendorIdOf(caller);
      const [rows, plan] = await Promise.all([queries.list({ vendorId }), queries.planOf(vendorId)]);
      return {
        plan: plan?.plan === "premium" ? ("premium" as const) : ("free" as const),
        data: rows.map(targetOf),
      };
    },

    async createEmailTarget(caller: Caller, body: unknown) {
      const vendorId = vendorIdOf(caller);
      const input = parse(ForwardEmailTargetInput, body);
      const { token, hash } = newConfirmationToken(now());
      const row = await queries.insertEmail({
        vendorId,
        email: input.email,
        events: input.events,
        tokenHash: hash,
        createdBy: caller.id,
      });
      await mailConfirmation(vendorId, input.email, token);
      return targetOf(row);
    },

    async resendConfirmation(caller: Caller, id: number) {
      const target = await targetFor(caller, id);
      if (target.kind !== "email" || target.confirmed_at !== null)
        throw new AppError("conflict", { message: "This target needs no confirmation." });
      const { token, hash } = newConfirmationToken(now());
      await queries.update(ownerOf(caller), id, { tokenHash: hash });
      await mailConfirmation(vendorIdOf(caller), target.email ?? "", token);
      return targetOf(target);
    },

    async createWebhookTarget(caller: Caller, body: unknown) {
      const vendorId = vendorIdOf(caller);
      await requirePremium(vendorId);
      const input = parse(ForwardWebhookTargetInput, body);
      await checkWebhookUrl(input.url, options.allowLoopback);
      const secret = newSecret();
      const row = await queries.insertWebhook({ vendorId }, { ...input, secret, createdBy: caller.id });
      return { target: targetOf(row), secret };
    },

    async rotateSecret(caller: Caller, id: number) {
      const target = await targetFor(caller, id);
      if (target.kind !== "webhook")
        throw new AppError("conflict", { message: "Only webhooks have a secret." });
      const secret = newSecret();
      const row = await queries.update(ownerOf(caller), id, { secret });
      return { target: targetOf(row ?? target), secret };
    },

    async updateTarget(caller: Caller, id: number, body: unknown) {
      const target = await targetFor(caller, id);
      const input = parse(ForwardTargetUpdate, body);
      if (input.format !== undefined && target.kind !== "webhook")
        throw new AppError("validation", { fieldErrors: { format: ["E-mail targets have no format."] } });
      const row = await queries.update(ownerOf(caller), id, {
        ...(input.events !== undefined && { events: input.events }),
        ...(input.format !== undefined && { format: input.format }),
      });
      return targetOf(row ?? target);
    },

    async disableTarget(caller: Caller, id: number) {
      const target = await targetFor(caller, id);
      const row = await queries.setStatus(ownerOf(caller), id, "disabled", "Disabled by your organisation.");
      return targetOf(row ?? target);
    },

    async enableTarget(caller: Caller, id: number) {
      const target = await targetFor(caller, id);
      if (target.kind === "webhook") {
        await requirePremium(vendorIdOf(caller));
        await checkWebhookUrl(target.url ?? "", options.allowLoopback);
      }
      const status = target.kind === "email" && target.confirmed_at === null ? "pending" : "active";
      const row = await queries.setStatus(ownerOf(caller), id, status, null);
      return targetOf(row ?? target);
    },

    async deleteTarget(caller: Caller, id: number) {
      if (!(await queries.remove(ownerOf(caller), id)))
        throw new AppError("not_found", { message: TARGET_NOT_FOUND });
    },

    /** `report.test` to this target only, sent once. */
    async sendTest(caller: Caller, id: number) {
      const target = await targetFor(caller, id);
      await requireSendable(target, vendorIdOf(caller));
      const at = now();
      const payload = testPayload(options.appUrl, at);
      const deliveryId = await queueTestDelivery(database.sql, ownerOf(caller), target.id, payload, at);
      return queued(deliveryId);
    },

    async redeliver(caller: Caller, deliveryId: number) {
      const delivery = await queries.deliveryOf(ownerOf(caller), deliveryId);
      if (!delivery) throw new AppError("not_found", { message: "Delivery not found." });
      const target = await targetFor(caller, delivery.target_id);
      await requireSendable(target, vendorIdOf(caller));
      return queued(await queries.insertManualDelivery(target.id, Number(delivery.event_id), now()));
    },

    async findDeliveries(caller: Caller, id: number, page: PageRequest) {
      return deliveryPageOf(queries, (await targetFor(caller, id)).id, page);
    },

    /** The public link's POST (a mail scanner's GET of the page confirms nothing). */
    async confirm(body: unknown, ip: string) {
      const maxHits = Math.max(1, Math.floor(CONFIRM_RATE_LIMIT[0] * (options.rateLimitFactor ?? 1)));
      const { hits, secondsLeft } = await options.hitRateLimit(
        `forwarding-confirm:${ip}`,
        CONFIRM_RATE_LIMIT[1],
      );
      if (hits > maxHits)
        throw new AppError("rate_limited", {
          message: `Too many attempts. Please try again in ${secondsLeft} seconds.`,
          headers: { "retry-after": String(secondsLeft) },
        });
      const { token } = parse(ForwardConfirmInput, body);
      const target = await queries.findByTokenHash(sha256(token));
      if (!target) throw new AppError("not_found", { message: "This confirmation link is not valid." });
      if (target.confirmed_at !== null)
        throw new AppError("conflict", { message: "This address is already confirmed." });
      const issuedAt = issuedAtOf(token);
      if (issuedAt === null || now().getTime() - issuedAt > CONFIRMATION_DAYS * 86_400_000)
        throw new AppError("gone", {
          message: "This confirmation link has expired. Ask the organisation to send a new one.",
        });
      await queries.confirm(target.id);
      return { email: target.email ?? "", vendor_name: target.vendor_name };
    },
  };
}

export type ForwardingService = ReturnType<typeof createForwardingService>;
