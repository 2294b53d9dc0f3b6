import {
  Contributors,
  OsvRecord,
  PublicProduct,
  PublicResearcherProfile,
  VulnerabilityDetail,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import { productIdOf, publicRead, tags } from "./public-read.ts";
import type { VulnerabilityService } from "./service.ts";

/** The public records of the database API (PRODUCT.md §6, spec §7 product reads). */
export const vulnerabilityRoutes: FastifyPluginAsyncZod<{
  vulnerabilities: VulnerabilityService;
  responseStore?: ResponseStore;
}> = async (app, { vulnerabilities, responseStore }) => {
  registerHttpCache(app, responseStore);

  app.get(
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
        params: z.object({ id: z.string() }),
        response: { 200: OsvRecord },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.getOsv(request.params.id),
  );

  app.get(
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

  app.get(
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

  app.get(
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
