import {
  InventoryQuery,
  WatchlistCreation,
  WatchlistDetail,
  WatchlistEntriesReplacement,
  WatchlistExposureReport,
  WatchlistInventoryResult,
  WatchlistList,
  WatchlistUpdate,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedInCaller } from "../../http/access.ts";
import type { WatchlistService } from "./service.ts";

const tags = ["watchlists"];
/** A composer.lock of a large site is a few hundred KB; 500 entries of `wp plugin list` about 60 KB. */
const INVENTORY_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
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

  // The body as a script sends it: `wp plugin list --format=json | curl --data-binary @- …` sends
  // JSON under curl's default form content type, so this one route takes any type, as text.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser(
      "*",
      { parseAs: "string", bodyLimit: INVENTORY_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    raw.withTypeProvider<ZodTypeProvider>().put(
      "/watchlists/:id/inventory",
      {
        schema: {
          tags,
          summary:
            "Replaces a watchlist's entries of one kind from a raw inventory: `wp plugin list --format=json`, `wp theme list --format=json`, a composer.lock or `slug version` lines (2 MB at most)",
          description:
            "The body is read as it is sent, whatever its content type: `wp plugin list --format=json | curl -X PUT -H 'Authorization: Bearer …' --data-binary @- '…/api/watchlists/{id}/inventory?kind=plugin'`. A `wp … list` or a plain list needs `kind`; a composer.lock says its kinds. The entries of the kinds it stands for are replaced, the others kept; a body that cannot be read changes nothing (422).",
          consumes: ["application/json", "text/plain"],
          params: WatchlistParams,
          querystring: InventoryQuery,
          body: z.string(),
          response: { 200: WatchlistInventoryResult },
        },
        config,
      },
      (request) =>
        watchlists.replaceInventory(userId(request), request.params.id, request.body, request.query.kind),
    );
  });

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
