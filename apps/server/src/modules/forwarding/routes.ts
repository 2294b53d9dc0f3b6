import {
  ForwardConfirmed,
  ForwardConfirmInput,
  ForwardDeliveryPage,
  ForwardEmailTargetInput,
  ForwardQueued,
  ForwardTarget,
  ForwardTargets,
  ForwardTargetUpdate,
  ForwardTargetWithSecret,
  ForwardWebhookTargetInput,
  PageQuery,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RequestAuth } from "../../http/access.ts";
import { signedInCaller } from "../../http/access.ts";
import { pageRequest } from "../../http/pagination.ts";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";
import type { ForwardingService } from "./service.ts";

const tags = ["report forwarding"];
const manageVendor = { access: "vendor", capability: "manage-vendor" } as const;
/** Bodies are validated by the shared domain schemas in the service, with their messages. */
const EmailTargetBody = bodyCheckedByService(ForwardEmailTargetInput, { id: "ForwardEmailTargetFields" });
const WebhookTargetBody = bodyCheckedByService(ForwardWebhookTargetInput, {
  id: "ForwardWebhookTargetFields",
});
const TargetUpdateBody = bodyCheckedByService(ForwardTargetUpdate, { id: "ForwardTargetUpdateFields" });
const ConfirmBody = bodyCheckedByService(ForwardConfirmInput, { id: "ForwardConfirmFields" });

const TargetIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const DeliveryIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

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
        response: { 200: ForwardTargets },
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
        body: EmailTargetBody,
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
        body: WebhookTargetBody,
        response: { 201: ForwardTargetWithSecret },
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
        body: TargetUpdateBody,
        response: { 200: ForwardTarget },
      },
      config: manageVendor,
    },
    (request) => forwarding.updateTarget(signedInCaller(request).user, request.params.id, request.body),
  );

  app.delete(
    `${base}/targets/:id`,
    {
      schema: {
        tags,
        summary: "Deletes a target and its delivery log",
        params: TargetIdParams,
        response: { 204: z.null().meta({ description: "Deleted." }) },
      },
      config: manageVendor,
    },
    async (request, reply) => {
      await forwarding.deleteTarget(signedInCaller(request).user, request.params.id);
      return reply.code(204).send(null);
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
    ForwardTargetWithSecret,
  );
  action("disable", "Stops forwarding to a target", forwarding.disableTarget, ForwardTarget);
  action(
    "enable",
    "Forwards to a target again (webhooks need premium)",
    forwarding.enableTarget,
    ForwardTarget,
  );
  action("test", "Sends a report.test event to this target only", forwarding.sendTest, ForwardQueued, 202);

  app.get(
    `${base}/targets/:id/deliveries`,
    {
      schema: {
        tags,
        summary: "A target's delivery log, newest first, with each delivery's attempts",
        params: TargetIdParams,
        querystring: PageQuery,
        response: { 200: ForwardDeliveryPage },
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
        response: { 202: ForwardQueued },
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
        body: ConfirmBody,
        response: { 200: ForwardConfirmed },
      },
      config: { access: "public" },
    },
    (request) => forwarding.confirm(request.body, request.ip),
  );
};
