import { z } from "zod";
import { Pagination } from "./pagination.ts";

/** The report forwarding API's answers (decision 013); a target never shows its secret after creation. */

export const ForwardTarget = z
  .object({
    id: z.number().int(),
    kind: z.enum(["email", "webhook"]),
    email: z.string().nullable(),
    url: z.string().nullable(),
    format: z.enum(["json", "slack", "discord"]),
    events: z.array(z.string()),
    status: z.enum(["pending", "active", "disabled"]),
    consecutive_failures: z.number().int(),
    confirmed_at: z.string().nullable(),
    disabled_at: z.string().nullable(),
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "ForwardTarget" });
export type ForwardTarget = z.infer<typeof ForwardTarget>;

export const ForwardTargets = z.object({ plan: z.enum(["free", "premium"]), data: z.array(ForwardTarget) });
export type ForwardTargets = z.infer<typeof ForwardTargets>;
export const ForwardTargetWithSecret = z
  .object({
    target: ForwardTarget,
    secret: z.string().describe("Shown once; store it to verify signatures."),
  })
  .meta({ id: "ForwardTargetWithSecret" });
export type ForwardTargetWithSecret = z.infer<typeof ForwardTargetWithSecret>;
export const ForwardQueued = z.object({ delivery_id: z.number().int() });
export type ForwardQueued = z.infer<typeof ForwardQueued>;

/** `POST /api/forwarding/confirm`: the confirmed address and whose reports it receives. */
export const ForwardConfirmed = z.object({ email: z.string(), vendor_name: z.string() });
export type ForwardConfirmed = z.infer<typeof ForwardConfirmed>;

const DeliveryAttempt = z.object({
  attempted_at: z.string(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  succeeded: z.boolean(),
  response_excerpt: z.string().nullable(),
});
export const ForwardDelivery = z
  .object({
    id: z.number().int(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.number().int(),
    manual: z.boolean(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    last_latency_ms: z.number().int().nullable(),
    last_response_excerpt: z.string().nullable(),
    attempt_log: z.array(DeliveryAttempt),
  })
  .meta({ id: "ForwardDelivery" });
export type ForwardDelivery = z.infer<typeof ForwardDelivery>;
export const ForwardDeliveryPage = z.object({ data: z.array(ForwardDelivery), pagination: Pagination });
