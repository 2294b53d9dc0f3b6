import {
  ForwardDeliveryPage,
  ForwardQueued,
  ForwardTarget,
  ForwardTargetWithSecret,
  PageQuery,
  WatchlistWebhookInput,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedInCaller } from "../../http/access.ts";
import { pageRequest } from "../../http/pagination.ts";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";
import type { WatchlistWebhookService } from "./webhooks.ts";

const tags = ["watchlists"];
const WatchlistParams = z.object({ id: z.string() });
const WebhookParams = z.object({
  id: z.string(),
  webhookId: z.coerce.number().int().positive().max(2_147_483_647),
});
/** Bodies are validated by the shared domain schema in the service, with its messages. */
const Body = bodyCheckedByService(WatchlistWebhookInput, { id: "WatchlistWebhookFields" });

/**
 * A watchlist's alert webhooks (issue 20): signed JSON, Slack or Discord, delivered and retried by the
 * report forwarding's queue; the owner's, or a script's with a `watchlists` API key.
 */
export const watchlistWebhookRoutes: FastifyPluginAsyncZod<{ webhooks: WatchlistWebhookService }> = async (
  app,
  { webhooks },
) => {
  const config = { access: "watchlists" } as const;
  const userId = (request: Parameters<typeof signedInCaller>[0]) => signedInCaller(request).user.id;
  const base = "/watchlists/:id/webhooks";

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "A watchlist's alert webhooks",
        params: WatchlistParams,
        response: { 200: z.object({ data: z.array(ForwardTarget) }) },
      },
      config,
    },
    (request) => webhooks.list(userId(request), request.params.id),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary:
          "Adds an alert webhook: Pressguard's signed JSON, or a Slack or Discord incoming webhook's format. The secret is shown once",
        params: WatchlistParams,
        body: Body,
        response: { 201: ForwardTargetWithSecret },
      },
      config,
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.create(userId(request), request.params.id, request.body)),
  );

  const action = (
    path: string,
    summary: string,
    run: (userId: number, id: string, webhookId: number) => Promise<unknown>,
  ) =>
    app.post(
      `${base}/:webhookId/${path}`,
      {
        schema: {
          tags,
          summary,
          params: WebhookParams,
          response: path === "test" ? { 202: ForwardQueued } : { 200: ForwardTarget },
        },
        config,
      },
      async (request, reply) =>
        reply
          .status(path === "test" ? 202 : 200)
          .send(await run(userId(request), request.params.id, request.params.webhookId)),
    );
  action("enable", "Enables an alert webhook again (after it was switched off)", webhooks.enable);
  action("disable", "Pauses an alert webhook", webhooks.disable);
  action("test", "Sends an example alert (watchlist.test) to this webhook only", webhooks.sendTest);

  app.get(
    `${base}/:webhookId/deliveries`,
    {
      schema: {
        tags,
        summary: "An alert webhook's delivery log, newest first, with each delivery's attempts",
        params: WebhookParams,
        querystring: PageQuery,
        response: { 200: ForwardDeliveryPage },
      },
      config,
    },
    (request) =>
      webhooks.deliveries(
        userId(request),
        request.params.id,
        request.params.webhookId,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.delete(
    `${base}/:webhookId`,
    {
      schema: {
        tags,
        summary: "Deletes an alert webhook",
        params: WebhookParams,
        response: { 204: z.null() },
      },
      config,
    },
    async (request, reply) => {
      await webhooks.remove(userId(request), request.params.id, request.params.webhookId);
      return reply.status(204).send(null);
    },
  );
};
