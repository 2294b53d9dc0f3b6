import {
  WatchlistCreation,
  WatchlistDetail,
  WatchlistEntriesReplacement,
  WatchlistExposureReport,
  WatchlistList,
  WatchlistUpdate,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedInCaller } from "../../http/access.ts";
import type { WatchlistService } from "./service.ts";

const tags = ["watchlists"];
const WatchlistParams = z.object({ id: z.string() });

/**
 * Watchlists (issue 20, decision 031): any signed-in user, or a script with an API key of the
 * `watchlists` scope; each caller reads and changes only their own.
 */
export const watchlistRoutes: FastifyPluginAsyncZod<{ watchlists: WatchlistService }> = async (
  app,
  { watchlists },
) => {
  const config = { access: "watchlists" } as const;
  const userId = (request: Parameters<typeof signedInCaller>[0]) => signedInCaller(request).user.id;

  app.get(
    "/watchlists",
    {
      schema: {
        tags,
        summary: "Your watchlists, by name, with their counts of entries and exposures",
        response: { 200: WatchlistList },
      },
      config,
    },
    (request) => watchlists.list(userId(request)),
  );

  app.post(
    "/watchlists",
    {
      schema: {
        tags,
        summary: "Creates a watchlist: a name and the products a site runs, each with its installed version",
        body: WatchlistCreation,
        response: { 201: WatchlistDetail },
      },
      config,
    },
    async (request, reply) => reply.status(201).send(await watchlists.create(userId(request), request.body)),
  );

  app.get(
    "/watchlists/exposures",
    {
      schema: {
        tags,
        summary: "Every watchlist with only its entries that a known vulnerability affects",
        response: { 200: WatchlistExposureReport },
      },
      config,
    },
    (request) => watchlists.exposures(userId(request)),
  );

  app.get(
    "/watchlists/:id",
    {
      schema: {
        tags,
        summary: "A watchlist: each entry with the known vulnerabilities of its installed version",
        params: WatchlistParams,
        response: { 200: WatchlistDetail },
      },
      config,
    },
    (request) => watchlists.get(userId(request), request.params.id),
  );

  app.patch(
    "/watchlists/:id",
    {
      schema: {
        tags,
        summary: "Renames a watchlist, or sets how its alerts are sent (immediate, daily digest, off)",
        params: WatchlistParams,
        body: WatchlistUpdate,
        response: { 200: WatchlistDetail },
      },
      config,
    },
    (request) => watchlists.update(userId(request), request.params.id, request.body),
  );

  app.put(
    "/watchlists/:id/entries",
    {
      schema: {
        tags,
        summary: "Replaces a watchlist's entries (a re-uploaded inventory, or versions edited)",
        params: WatchlistParams,
        body: WatchlistEntriesReplacement,
        response: { 200: WatchlistDetail },
      },
      config,
    },
    (request) => watchlists.replaceEntries(userId(request), request.params.id, request.body.entries),
  );

  app.delete(
    "/watchlists/:id",
    {
      schema: { tags, summary: "Deletes a watchlist", params: WatchlistParams, response: { 204: z.null() } },
      config,
    },
    async (request, reply) => {
      await watchlists.remove(userId(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
