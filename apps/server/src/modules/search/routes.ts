import {
  Autocomplete,
  AutocompleteQuery,
  PageQuery,
  ProductSearchPage,
  ProductSearchQuery,
  ProductVulnerabilitiesQuery,
  ProgramDirectory,
  ProgramDirectoryQuery,
  VulnerabilityPage,
  VulnerabilitySearchPage,
  VulnerabilitySearchQuery,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { pageRequest } from "../../http/pagination.ts";
import { productIdOf, publicRead, tags } from "../public-records/public-read.ts";
import type { SearchService } from "./service.ts";

/** The lists of the public database API (PRODUCT.md §6, spec §7 product reads). */
export const searchRoutes: FastifyPluginAsyncZod<{
  search: SearchService;
  /** Public reads: registered here, answered in-process to server-rendered pages too. */
  reads: PageReads;
  responseStore?: ResponseStore;
}> = async (app, { search, responseStore, reads }) => {
  registerHttpCache(app, responseStore);

  reads.get(
    app,
    "/v1/vulnerabilities",
    {
      schema: {
        tags,
        summary: "Search vulnerabilities",
        description:
          "Full text over title, description, product name and slug. A CVE id (any case, or the bare 2024-4704), a record id or a CWE id (CWE-79) finds its records exactly. When q names a product (its name, slug, the first letters of its words, or a misspelling of it), the answer lists the products first (`products`), and that product's records before the other matches (`records_first`); the rest of q (`elementor xss`) searches its records, where abbreviations of vulnerability types (xss, sqli, csrf, ssrf, rce, lfi, rfi, idor, xxe) read as the type's name. Sorted by relevance when q is words, otherwise by date; sort=epss puts the highest FIRST EPSS score first. known_exploited=true keeps the records in CISA's Known Exploited Vulnerabilities catalog. Withdrawn records are listed only when q is their CVE id or record id.",
        querystring: VulnerabilitySearchQuery,
        response: { 200: VulnerabilitySearchPage },
      },
      config: publicRead,
    },
    (request) =>
      search.searchVulnerabilities(
        request.query,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/v1/autocomplete",
    {
      schema: {
        tags,
        summary: "Suggestions for a search box: the products a text names",
        description:
          "At most 8 products whose name or slug words start with q's words, or whose slug or name q spells exactly at either end, or (when none) the products most alike; each with its current version, installs and counts of known and unfixed vulnerabilities.",
        querystring: AutocompleteQuery,
        response: { 200: Autocomplete },
      },
      config: publicRead,
    },
    (request) => search.autocomplete(request.query),
  );

  reads.get(
    app,
    "/v1/programs",
    {
      schema: {
        tags,
        summary: "The active VDP directory: products whose vendor runs a disclosure program",
        querystring: ProgramDirectoryQuery,
        response: { 200: ProgramDirectory },
      },
      config: publicRead,
    },
    (request) =>
      search.findActivePrograms(
        request.query.q,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/v1/products",
    {
      schema: {
        tags,
        summary: "Search products by name or slug (the report form's product picker)",
        description:
          "Every product of the database, each word of q a prefix; an exact slug first, then active programs, then by installs.",
        querystring: ProductSearchQuery,
        response: { 200: ProductSearchPage },
      },
      config: publicRead,
    },
    (request) =>
      search.findProducts(request.query, pageRequest(request, request.query.page, request.query.per_page)),
  );

  reads.get(
    app,
    "/products/:id/vulnerabilities",
    {
      schema: {
        tags,
        summary: "A product's vulnerabilities, present (unpatched) or fixed",
        params: z.object({ id: z.string() }),
        querystring: ProductVulnerabilitiesQuery,
        response: { 200: VulnerabilityPage },
      },
      config: publicRead,
    },
    (request) =>
      search.findProductVulnerabilities(
        productIdOf(request.params.id),
        request.query["filter[tab]"],
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  reads.get(
    app,
    "/v1/researchers/:uuid/vulnerabilities",
    {
      schema: {
        tags,
        summary: "The vulnerabilities credited to a researcher",
        params: z.object({ uuid: z.string() }),
        querystring: PageQuery,
        response: { 200: VulnerabilityPage },
      },
      config: publicRead,
    },
    (request) =>
      search.findResearcherVulnerabilities(
        request.params.uuid,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );
};
