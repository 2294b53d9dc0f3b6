import { PageQuery, Pagination } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RequestAuth } from "../../http/access.ts";
import { signedInCaller } from "../../http/access.ts";
import { pageRequest } from "../../http/pagination.ts";
import type { ForwardingService } from "./service.ts";

const tags = ["report forwarding"];
const manageVendor = { access: "vendor", capability: "manage-vendor" } as const;
/** Bodies are validated by the shared domain schemas in the service, with their messages. */
const Body = z.record(z.string(), z.unknown());

const TargetIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const DeliveryIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const ForwardTarget = z
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

const TargetList = z.object({ plan: z.enum(["free", "premium"]), data: z.array(ForwardTarget) });
const TargetWithSecret = z
  .object({
    target: ForwardTarget,
    secret: z.string().describe("Shown once; store it to verify signatures."),
  })
  .meta({ id: "ForwardTargetWithSecret" });
const Queued = z.object({ delivery_id: z.number().int() });

const DeliveryAttempt = z.object({
  attempted_at: z.string(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  succeeded: z.boolean(),
  response_excerpt: z.string().nullable(),
});
const Delivery = z
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
const DeliveryPage = z.object({ data: z.array(Delivery), pagination: Pagination });

/** Report forwarding (issue 8): the vendor's targets API and the public e-mail confirmation. */
export const forwardingRoutes: FastifyPluginAsyncZod<{ forwarding: ForwardingService }> = async (
  app,
  { forwarding },
) => {
  const base = "/vendor/forwarding";

  app.get(
    `${base}/targets`,
    {
      schema: {
        tags,
        summary: "The organisation's forwarding targets and plan",
        response: { 200: TargetList },
      },
      config: manageVendor,
    },
    (request) => forwarding.listTargets(signedInCaller(request).user),
  );

  app.post(
    `${base}/targets/email`,
    {
      schema: {
        tags,
        summary: "Adds an e-mail target; it receives nothing until the mailed link is confirmed",
        body: Body,
        response: { 201: ForwardTarget },
      },
      config: manageVendor,
    },
    async (request, reply) =>
      reply.code(201).send(await forwarding.createEmailTarget(signedInCaller(request).user, request.body)),
  );

  app.post(
    `${base}/targets/webhook`,
    {
      schema: {
        tags,
        summary: "Adds a signed webhook (premium); answers its signing secret once",
        body: Body,
        response: { 201: TargetWithSecret },
      },
      config: manageVendor,
    },
    async (request, reply) =>
      reply.code(201).send(await forwarding.createWebhookTarget(signedInCaller(request).user, request.body)),
  );

  app.put(
    `${base}/targets/:id`,
    {
      schema: {
        tags,
        summary: "Changes a target's events or webhook format",
        params: TargetIdParams,
        body: Body,
        response: { 200: ForwardTarget },
      },
      config: manageVendor,
    },
    (request) => forwarding.updateTarget(signedInCaller(request).user, request.params.id, request.body),
  );

  app.delete(
    `${base}/targets/:id`,
    {
      schema: { tags, summary: "Deletes a target and its delivery log", params: TargetIdParams },
      config: manageVendor,
    },
    async (request, reply) => {
      await forwarding.deleteTarget(signedInCaller(request).user, request.params.id);
      return reply.code(204).send();
    },
  );

  const action = (
    path: string,
    summary: string,
    run: (user: RequestAuth["user"], id: number) => Promise<unknown>,
    response: z.ZodType,
    code = 200,
  ) =>
    app.post(
      `${base}/targets/:id/${path}`,
      {
        schema: { tags, summary, params: TargetIdParams, response: { [code]: response } },
        config: manageVendor,
      },
      async (request, reply) =>
        reply.code(code).send(await run(signedInCaller(request).user, request.params.id)),
    );

  action(
    "resend-confirmation",
    "Mails a new confirmation link to an unconfirmed e-mail target",
    forwarding.resendConfirmation,
    ForwardTarget,
  );
  action(
    "rotate-secret",
    "Replaces a webhook's signing secret; answers the new one once",
    forwarding.rotateSecret,
    TargetWithSecret,
  );
  action("disable", "Stops forwarding to a target", forwarding.disableTarget, ForwardTarget);
  action(
    "enable",
    "Forwards to a target again (webhooks need premium)",
    forwarding.enableTarget,
    ForwardTarget,
  );
  action("test", "Sends a report.test event to this target only", forwarding.sendTest, Queued, 202);

  app.get(
    `${base}/targets/:id/deliveries`,
    {
      schema: {
        tags,
        summary: "A target's delivery log, newest first, with each delivery's attempts",
        params: TargetIdParams,
        querystring: PageQuery,
        response: { 200: DeliveryPage },
      },
      config: manageVendor,
    },
    (request) =>
      forwarding.findDeliveries(
        signedInCaller(request).user,
        request.params.id,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.post(
    `${base}/deliveries/:id/redeliver`,
    {
      schema: {
        tags,
        summary: "Sends a delivery's event again, once (a new, manual delivery)",
        params: DeliveryIdParams,
        response: { 202: Queued },
      },
      config: manageVendor,
    },
    async (request, reply) =>
      reply.code(202).send(await forwarding.redeliver(signedInCaller(request).user, request.params.id)),
  );

  app.post(
    "/forwarding/confirm",
    {
      schema: {
        tags,
        summary: "Confirms an e-mail forwarding target with the mailed token (the page POSTs it)",
        body: Body,
        response: { 200: z.object({ email: z.string(), vendor_name: z.string() }) },
      },
      config: { access: "public" },
    },
    (request) => forwarding.confirm(request.body, request.ip),
  );
};
