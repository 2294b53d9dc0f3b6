import {
  Contributors,
  CsafAdvisoryDocument,
  OSV_ID_PREFIX,
  OsvRecord,
  PublicProduct,
  PublicResearcherProfile,
  VulnerabilityDetail,
} from "@pressguard/domain";
import { createSerializerCompiler, type FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { productIdOf, publicRead, tags } from "../public-records/public-read.ts";
import { sortedKeysReplacer } from "./csaf.ts";
import type { VulnerabilityService } from "./service.ts";

/** The zod serializer of the app, but writing every object's keys in order (the CSAF advisory). */
const sortedKeysSerializer = createSerializerCompiler({ replacer: sortedKeysReplacer });

/** The public records of the database API (PRODUCT.md §6, spec §7 product reads). */
export const vulnerabilityRoutes: FastifyPluginAsyncZod<{
  vulnerabilities: VulnerabilityService;
  /** Public reads: registered here, answered in-process to server-rendered pages too. */
  reads: PageReads;
  responseStore?: ResponseStore;
}> = async (app, { vulnerabilities, responseStore, reads }) => {
  registerHttpCache(app, responseStore);

  reads.get(
    app,
    "/v1/vulnerabilities/:id",
    {
      schema: {
        tags,
        summary: "One vulnerability by our id, its CVE id, its source id or its slug",
        params: z.object({ id: z.string() }),
        response: { 200: VulnerabilityDetail },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.getVulnerability(request.params.id),
  );

  app.get(
    "/v1/osv/:id",
    {
      schema: {
        tags,
        summary: "One vulnerability as an OSV record (schema 1.7.5)",
        description:
          `{id} is the record's OSV id, ${OSV_ID_PREFIX}<uuid> (the prefix as written), or its CVE id ` +
          "or slug, which answer the same record. The bare uuid (the OSV id until November 2026) " +
          `answers 301 with Location /api/v1/osv/${OSV_ID_PREFIX}<uuid>.`,
        params: z.object({
          id: z.string().meta({
            description: `${OSV_ID_PREFIX}<uuid>, a CVE id or the slug`,
            example: `${OSV_ID_PREFIX}01889c7b-f47b-4caf-8e35-4f8af188426e`,
          }),
        }),
        response: {
          200: OsvRecord,
          301: z.null().meta({
            description: `Moved permanently: a bare uuid; Location is /api/v1/osv/${OSV_ID_PREFIX}<uuid>.`,
          }),
        },
      },
      config: publicRead,
    },
    async (request, reply) => {
      const answer = await vulnerabilities.getOsv(request.params.id);
      if ("movedTo" in answer) return reply.redirect(`${app.prefix}/v1/osv/${answer.movedTo}`, 301);
      return answer.record;
    },
  );

  app.get(
    "/v1/csaf/:id",
    {
      schema: {
        tags,
        summary: "One vulnerability as a CSAF 2.0 security advisory",
        description:
          "A CSAF 2.0 document of category csaf_security_advisory (TLP:WHITE), application/json. {id} is " +
          `the document's file name (${OSV_ID_PREFIX.toLowerCase()}<uuid>.json, the URL the ROLIE feeds ` +
          `of /.well-known/csaf/provider-metadata.json list), or any id /api/v1/osv/{id} accepts: ` +
          `${OSV_ID_PREFIX}<uuid>, the bare uuid, the CVE id or the slug, which answer the same document ` +
          "(no redirect). 404 otherwise.",
        params: z.object({
          id: z.string().meta({
            description: `${OSV_ID_PREFIX.toLowerCase()}<uuid>.json, ${OSV_ID_PREFIX}<uuid>, the uuid, a CVE id or the slug`,
            example: `${OSV_ID_PREFIX.toLowerCase()}01889c7b-f47b-4caf-8e35-4f8af188426e.json`,
          }),
        }),
        response: { 200: CsafAdvisoryDocument },
      },
      // Checked against its schema, written with every object's keys sorted (CSAF test 6.2.13). Fastify
      // types a route's compiler by the route's schema; it is called with each response's schema.
      serializerCompiler: (route) =>
        sortedKeysSerializer(route as unknown as Parameters<typeof sortedKeysSerializer>[0]),
      config: publicRead,
    },
    (request) => vulnerabilities.getCsaf(request.params.id),
  );

  reads.get(
    app,
    "/v1/products/:platform/:kind/:slug",
    {
      schema: {
        tags,
        summary: "A product of the public database by platform, kind and slug",
        params: z.object({ platform: z.string(), kind: z.string(), slug: z.string() }),
        response: { 200: PublicProduct },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.getProduct(request.params.platform, request.params.kind, request.params.slug),
  );

  reads.get(
    app,
    "/products/:id/contributors",
    {
      schema: {
        tags,
        summary: "Researchers credited on a product's vulnerabilities",
        params: z.object({ id: z.string() }),
        response: { 200: Contributors },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.findProductContributors(productIdOf(request.params.id)),
  );

  reads.get(
    app,
    "/v1/researchers/:uuid",
    {
      schema: {
        tags,
        summary: "A researcher's public profile, points and rank",
        params: z.object({ uuid: z.string() }),
        response: { 200: PublicResearcherProfile },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.getResearcher(request.params.uuid),
  );
};
