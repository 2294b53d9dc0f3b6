import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import { COMPLETE_ROLIE_FEED_PATH } from "./csaf-distribution.ts";
import type { WellKnownService } from "./service.ts";

/**
 * The files every security site is expected to serve (issue 18, decision 026): security.txt
 * (RFC 9116), robots.txt and the sitemaps. Outside /api, at the paths crawlers and researchers
 * look for, and public: kept per data version and day in the response store (decision 005) with
 * an ETag and 304.
 */

/** An hour: the files change with the data (sitemaps) or once a day (security.txt's Expires). */
const CACHE_SECONDS = 3600;
const config = { publicCacheSeconds: CACHE_SECONDS };
const tags = ["site files"];

const TEXT = "text/plain; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";
const XML = "application/xml; charset=utf-8";

const send = (reply: FastifyReply, type: string, body: string | Buffer) => reply.type(type).send(body);

const text = (description: string) => ({ 200: z.string().describe(description) });

const ProductPath = z.object({
  platform: z.string().describe("wordpress"),
  kind: z.string().describe("plugin, theme or core"),
  product: z.string().describe("the product's slug, e.g. contact-form-7"),
});

/** A child sitemap's number, from 1: digits only, else the path is no sitemap (the web's 404). */
const SitemapNumber = z.object({
  page: z.string().regex(/^\d+$/).describe("the file's number, from 1"),
});

export const wellKnownRoutes: FastifyPluginAsyncZod<{
  wellKnown: WellKnownService;
  responseStore?: ResponseStore;
}> = async (app, { wellKnown, responseStore }) => {
  registerHttpCache(app, responseStore);

  app.get(
    "/.well-known/security.txt",
    {
      config,
      schema: {
        tags,
        summary: "The site's security.txt (RFC 9116)",
        description:
          "Where to report a vulnerability (Contact: SECURITY_CONTACT, by default the report page), " +
          "the disclosure policy, the canonical URL and an Expires 180 days after the start of the " +
          "current UTC day. Not signed. text/plain; ETag and 304.",
        produces: [TEXT],
        response: text("A security.txt file (text/plain; charset=utf-8)."),
      },
    },
    async (_request, reply) => send(reply, TEXT, wellKnown.getSecurityTxt()),
  );

  // RFC 9116 §3: the legacy top-level path redirects to the one under /.well-known/.
  app.get("/security.txt", { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect("/.well-known/security.txt", 301),
  );

  app.get(
    "/database/:platform/:kind/:product/security.txt",
    {
      config,
      schema: {
        tags,
        summary: "The security.txt of a product's vulnerability disclosure program",
        description:
          "For the vendor's own site: Contact is the product's report form on this site, Policy its " +
          "published security policy. 404 unless the product runs an active program.",
        produces: [TEXT],
        params: ProductPath,
        response: text("A security.txt file (text/plain; charset=utf-8)."),
      },
    },
    async (request, reply) => {
      const { platform, kind, product } = request.params;
      return send(reply, TEXT, await wellKnown.getProgramSecurityTxt(platform, kind, product));
    },
  );

  app.get(
    "/robots.txt",
    {
      config,
      schema: {
        tags,
        summary: "robots.txt (RFC 9309)",
        description:
          "With SITE_INDEXABLE=false everything is disallowed. Otherwise the public database is open; " +
          "the API, the signed-in areas and the report workflow are not; the sitemap index is named.",
        produces: [TEXT],
        response: text("A robots.txt file (text/plain; charset=utf-8)."),
      },
    },
    async (_request, reply) => send(reply, TEXT, wellKnown.getRobotsTxt()),
  );

  app.get(
    "/sitemap.xml",
    {
      config,
      schema: {
        tags,
        summary: "The sitemap index",
        description:
          "Lists /sitemap-pages.xml and the files of every product page and every vulnerability page, " +
          "50,000 URLs each, with the newest change of each file's pages.",
        produces: [XML],
        response: { 200: z.string().describe("A sitemap index (sitemaps.org 0.9).") },
      },
    },
    async (_request, reply) => send(reply, XML, await wellKnown.getSitemapIndex()),
  );

  app.get(
    "/sitemap-pages.xml",
    {
      config,
      schema: {
        tags,
        summary: "The sitemap of the public database's main pages",
        produces: [XML],
        response: { 200: z.string().describe("A sitemap (sitemaps.org 0.9).") },
      },
    },
    async (_request, reply) => send(reply, XML, wellKnown.getPagesSitemap()),
  );

  app.get(
    "/.well-known/csaf/provider-metadata.json",
    {
      config,
      schema: {
        tags,
        summary: "CSAF 2.0 provider metadata",
        description:
          "The CSAF provider metadata (CSAF 2.0 §7.1.7, at the well-known URL of §7.1.9; security.txt " +
          "names it in a CSAF field): the publisher (category coordinator, namespace APP_URL), the role " +
          "csaf_provider, and the ROLIE feeds of the TLP:WHITE advisories: first the feed of every " +
          "advisory, then one by year of their initial release. Each advisory is GET /api/v1/csaf/{id}.",
        response: {
          200: z
            .looseObject({
              canonical_url: z.string(),
              distributions: z
                .array(
                  z.looseObject({
                    rolie: z
                      .looseObject({
                        feeds: z.array(
                          z.looseObject({ summary: z.string(), tlp_label: z.string(), url: z.string() }),
                        ),
                      })
                      .optional(),
                  }),
                )
                .optional(),
              last_updated: z.string(),
              list_on_CSAF_aggregators: z.boolean(),
              metadata_version: z.string(),
              mirror_on_CSAF_aggregators: z.boolean(),
              publisher: z.looseObject({ category: z.string(), name: z.string(), namespace: z.string() }),
              role: z.string(),
            })
            .meta({ id: "CsafProviderMetadata", description: "A CSAF provider-metadata.json document." }),
        },
      },
    },
    async (_request, reply) => {
      reply.type(JSON_TYPE);
      return wellKnown.getCsafProviderMetadata();
    },
  );

  app.get(
    COMPLETE_ROLIE_FEED_PATH,
    {
      config,
      schema: {
        tags,
        summary: "The ROLIE feed of every CSAF advisory",
        description:
          "A ROLIE feed (RFC 8322, JSON, CSAF 2.0 §7.1.15) listing every TLP:WHITE CSAF advisory, in record " +
          "id order: each entry links its advisory (/api/v1/csaf/x_pressguard-<uuid>.json) with its " +
          "published and updated dates. The yearly feeds are subsets of it. Built once per data version; " +
          "provider-metadata.json lists it first.",
        produces: [JSON_TYPE],
        response: { 200: z.unknown().describe("A ROLIE feed document (application/json).") },
      },
    },
    async (_request, reply) => send(reply, JSON_TYPE, await wellKnown.getCompleteRolieFeed()),
  );

  app.get(
    "/.well-known/csaf/feed-tlp-white-:year(^\\d{4})-:part(^\\d{1,4}).json",
    {
      config,
      schema: {
        tags,
        summary: "Part {part} of the ROLIE feed of the CSAF advisories first released in {year}",
        description:
          "A ROLIE feed (RFC 8322, JSON, CSAF 2.0 §7.1.15) of the TLP:WHITE CSAF advisories whose initial " +
          "release date falls in {year} (UTC), in parts of at most 10,000 (by record id), newest change " +
          "first within a part: each entry links its advisory (/api/v1/csaf/x_pressguard-<uuid>.json) with " +
          "its published and updated dates. Built once per data version; 404 for a year without " +
          "advisories or a part past the last. provider-metadata.json lists every feed.",
        produces: [JSON_TYPE],
        params: z.object({
          year: z
            .string()
            .regex(/^\d{4}$/)
            .describe("a year, e.g. 2024"),
          part: z
            .string()
            .regex(/^\d{1,4}$/)
            .describe("the part, from 1"),
        }),
        response: { 200: z.unknown().describe("A ROLIE feed document (application/json).") },
      },
    },
    async (request, reply) =>
      send(
        reply,
        JSON_TYPE,
        await wellKnown.getRolieFeed(Number(request.params.year), Number(request.params.part)),
      ),
  );

  for (const kind of ["products", "vulnerabilities"] as const) {
    app.get(
      `/sitemap-${kind}-:page(^\\d+).xml`,
      {
        config,
        schema: {
          tags,
          summary: `File {page} of the sitemap of every ${kind === "products" ? "product" : "vulnerability"} page`,
          description:
            kind === "products"
              ? "Products with a public record or an active program, in id order; 404 past the last file."
              : "Every record at its main product's path, in id order; 404 past the last file.",
          produces: [XML],
          params: SitemapNumber,
          response: { 200: z.string().describe("A sitemap (sitemaps.org 0.9).") },
        },
      },
      async (request, reply) =>
        send(reply, XML, await wellKnown.getSitemap(kind, Number(request.params.page))),
    );
  }
};
