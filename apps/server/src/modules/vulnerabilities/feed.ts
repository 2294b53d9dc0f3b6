import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { isoOf } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import type { SummaryRow, VulnerabilityQueries } from "./queries.ts";
import { pagePaths } from "./service.ts";

/** Atom (RFC 4287) feeds of new vulnerabilities: overall and per product (issue 5). */

const FEED_SIZE = 50;
const FEED_CACHE_SECONDS = 900;

/** Whether XML 1.0 allows a character (tab, newline, carriage return, and everything from space up). */
function allowedInXml(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  return code !== 0xfffe && code !== 0xffff;
}

function xml(text: string): string {
  // Characters XML 1.0 forbids would make the whole feed invalid: they are dropped.
  return Array.from(text)
    .filter(allowedInXml)
    .join("")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** When the record became known here: its publication date, else the day it was imported. */
const entryDate = (row: SummaryRow) => isoOf(row.published_at ?? row.created_at);

export function renderAtomFeed(options: {
  title: string;
  selfUrl: string;
  alternateUrl: string;
  appUrl: string;
  rows: SummaryRow[];
}): string {
  const { title, selfUrl, alternateUrl, appUrl, rows } = options;
  const updated = rows.map(entryDate).sort().at(-1) ?? new Date(0).toISOString();
  const entries = rows.map((row) => {
    const product = { platform: row.platform, kind: row.kind, slug: row.product_slug };
    const url = appUrl + pagePaths.vulnerability(product, row.slug);
    const summary = [
      `${row.product_name} (${row.kind})`,
      row.affected_versions ? `affected: ${row.affected_versions}` : null,
      row.fixed_in ? `fixed in ${row.fixed_in}` : "no known fix",
      row.cve,
      row.severity
        ? `severity ${row.severity}${row.cvss_score != null ? ` (${Number(row.cvss_score).toFixed(1)})` : ""}`
        : null,
    ]
      .filter(Boolean)
      .join(", ");
    return [
      "  <entry>",
      `    <title type="text">${xml(row.title)}</title>`,
      `    <id>urn:uuid:${row.id}</id>`,
      `    <link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `    <updated>${entryDate(row)}</updated>`,
      ...(row.published_at ? [`    <published>${isoOf(row.published_at)}</published>`] : []),
      `    <summary type="text">${xml(summary)}</summary>`,
      ...(row.severity ? [`    <category term="${xml(row.severity)}" label="Severity"/>`] : []),
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title type="text">${xml(title)}</title>`,
    `  <id>${xml(selfUrl)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(selfUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(alternateUrl)}"/>`,
    `  <updated>${updated}</updated>`,
    "  <author><name>Pressguard</name></author>",
    `  <rights type="text">${xml(
      "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license; CVE identifiers Copyright The MITRE Corporation. See /database/about-data.",
    )}</rights>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}

/** The feeds' OpenAPI description: they sit outside /api but are part of the public contract. */
function feedSchema(scope: string) {
  return {
    tags: ["public database"],
    summary: `Atom feed of the ${FEED_SIZE} newest vulnerabilities of ${scope}`,
    description:
      "An Atom 1.0 (RFC 4287) document, newest first by publication date (undated records by the day " +
      "they were imported). Each entry links to the vulnerability page and summarises the product, " +
      "affected versions, fix, CVE and severity. Cached for 15 minutes; ETag and 304 as on the JSON API.",
    produces: ["application/atom+xml"],
    response: { 200: z.string().describe("An Atom feed (application/atom+xml; charset=utf-8).") },
  };
}

/** The feeds live beside the pages they follow, outside /api, so they are registered at the root. */
export const feedRoutes: FastifyPluginAsync<{
  queries: VulnerabilityQueries;
  appUrl: string;
  responseStore?: ResponseStore;
}> = async (app, { queries, appUrl, responseStore }) => {
  registerHttpCache(app, responseStore);
  const config = { publicCacheSeconds: FEED_CACHE_SECONDS };
  const send = (reply: { type: (value: string) => unknown }, body: string) => {
    reply.type("application/atom+xml; charset=utf-8");
    return body;
  };

  app.get("/database/feed", { config, schema: feedSchema("every product") }, async (_request, reply) => {
    // The newest only: a limit of one page spares counting every record.
    const { rows } = await queries.search({
      sort: "date",
      limit: FEED_SIZE,
      offset: 0,
      matchLimit: FEED_SIZE,
    });
    return send(
      reply,
      renderAtomFeed({
        title: "Pressguard: new WordPress vulnerabilities",
        selfUrl: `${appUrl}/database/feed`,
        alternateUrl: `${appUrl}/database`,
        appUrl,
        rows,
      }),
    );
  });

  app.get<{ Params: { platform: string; kind: string; product: string } }>(
    "/database/:platform/:kind/:product/feed",
    {
      config,
      schema: {
        ...feedSchema("one product (404 when the product is unknown)"),
        params: z.object({
          platform: z.string().describe("wordpress"),
          kind: z.string().describe("plugin, theme or core"),
          product: z.string().describe("the product's slug, e.g. contact-form-7"),
        }),
      },
    },
    async (request, reply) => {
      const { platform, kind, product: slug } = request.params;
      const product = await queries.findProductByPath(platform, kind, slug);
      if (!product) throw new AppError("not_found", { message: "Product not found." });
      const { rows } = await queries.search({
        sort: "date",
        limit: FEED_SIZE,
        offset: 0,
        productId: product.id,
        matchLimit: FEED_SIZE,
      });
      const path = `/database/${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}`;
      return send(
        reply,
        renderAtomFeed({
          title: `Pressguard: ${product.name} vulnerabilities`,
          selfUrl: `${appUrl}${path}/feed`,
          alternateUrl: appUrl + pagePaths.product(product),
          appUrl,
          rows,
        }),
      );
    },
  );
};
