import { identifierSlugOf } from "@pressguard/domain";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { fixedForProductSql } from "../../db/infer-fixed.ts";
import {
  affectedRanges,
  credits,
  platforms,
  products,
  researchers,
  vendors,
  vulnerabilities,
  vulnerabilitySignals,
} from "../../db/schema/index.ts";
import { CREDIT_POINTS_SQL } from "../rankings/public.ts";

/**
 * The public records' SQL: one vulnerability (by id, CVE id or slug), every record in batches (the
 * OSV export), a product of the database with its counters and contributors, a researcher with their
 * standing. The lookups are prepared statements (the hot path, TOOLCHAIN.md).
 */

/** One affected range with its product, as the record's lookups and the export return it. */
export interface RangeRow {
  introduced: string | null;
  introducedInclusive: boolean;
  fixed: string | null;
  lastAffected: string | null;
  prefix: string;
  version: string;
  fixedIn: string | null;
  inferredFixedFrom: string | null;
  productId: number;
  kind: string;
  slug: string;
  name: string;
  platform: string;
  /** The product's author (the plugin directory's), when known: the vendor of a CSAF product tree. */
  author: string | null;
}

export interface ProductCounters {
  vulnerabilities: number;
  present: number;
  fixed: number;
}

export interface CreditRow {
  uuid: string;
  displayName: string;
  role: string;
}

export function createVulnerabilityQueries(database: Database) {
  const db = database.read;
  const run = database.sql;

  const detailColumns = {
    id: vulnerabilities.id,
    slug: vulnerabilities.slug,
    title: vulnerabilities.title,
    description: vulnerabilities.description,
    typeLabel: vulnerabilities.typeLabel,
    typeCode: vulnerabilities.typeCode,
    owaspCode: vulnerabilities.owaspCode,
    requiredPrivilege: vulnerabilities.requiredPrivilege,
    cvssVector: vulnerabilities.cvssVector,
    cvssScore: vulnerabilities.cvssScore,
    cvssVersion: vulnerabilities.cvssVersion,
    severity: vulnerabilities.severity,
    cve: vulnerabilities.cve,
    cwe: vulnerabilities.cwe,
    references: vulnerabilities.references,
    fixedIn: vulnerabilities.fixedIn,
    patched: vulnerabilities.patched,
    inferredFixedFrom: vulnerabilities.inferredFixedFrom,
    affectedPossiblyIncomplete: vulnerabilities.affectedPossiblyIncomplete,
    publishedAt: vulnerabilities.publishedAt,
    sourceUpdatedAt: vulnerabilities.sourceUpdatedAt,
    createdAt: vulnerabilities.createdAt,
    updatedAt: vulnerabilities.updatedAt,
    source: vulnerabilities.source,
    sourceUrl: vulnerabilities.sourceUrl,
    attribution: vulnerabilities.attribution,
    withdrawnAt: vulnerabilities.withdrawnAt,
    knownExploited: vulnerabilitySignals.knownExploited,
    epss: vulnerabilitySignals.epss,
    productId: products.id,
    productKind: products.kind,
    productSlug: products.slug,
    productName: products.name,
    platform: platforms.slug,
  };
  const detailBase = () =>
    db
      .select(detailColumns)
      .from(vulnerabilities)
      .innerJoin(products, eq(products.id, vulnerabilities.productId))
      .innerJoin(platforms, eq(platforms.id, products.platformId))
      .leftJoin(vulnerabilitySignals, eq(vulnerabilitySignals.vulnerabilityId, vulnerabilities.id));

  /**
   * The page's lookups fetch the record, its ranges and its credits in one round trip: PGlite plans
   * every statement, so three queries cost three plannings (~0.5 ms each).
   */
  const rangesJson = sql<RangeRow[]>`(select coalesce(json_agg(json_build_object(
      'introduced', ar.introduced, 'introducedInclusive', ar.introduced_inclusive, 'fixed', ar.fixed,
      'lastAffected', ar.last_affected, 'prefix', ar.prefix, 'version', ar.version, 'fixedIn', ar.fixed_in,
      'inferredFixedFrom', ar.inferred_fixed_from, 'productId', rp.id, 'kind', rp.kind, 'slug', rp.slug,
      'name', rp.name, 'platform', rpl.slug, 'author', rp.author)
      order by rp.kind, rp.slug, ar.position), '[]'::json)
    from affected_ranges ar
    join products rp on rp.id = ar.product_id
    join platforms rpl on rpl.id = rp.platform_id
    where ar.vulnerability_id = ${vulnerabilities.id})`;
  const creditsJson = sql<CreditRow[]>`(select coalesce(json_agg(json_build_object(
      'uuid', cr.uuid, 'displayName', cr.display_name, 'role', c.role) order by c.position), '[]'::json)
    from credits c
    join researchers cr on cr.id = c.researcher_id
    where c.vulnerability_id = ${vulnerabilities.id})`;
  const detailWithRelations = () =>
    db
      .select({ ...detailColumns, ranges: rangesJson, credits: creditsJson })
      .from(vulnerabilities)
      .innerJoin(products, eq(products.id, vulnerabilities.productId))
      .innerJoin(platforms, eq(platforms.id, products.platformId))
      .leftJoin(vulnerabilitySignals, eq(vulnerabilitySignals.vulnerabilityId, vulnerabilities.id));

  const byId = detailWithRelations()
    .where(eq(vulnerabilities.id, sql.placeholder("key")))
    .prepare("public_vulnerability_by_id");
  const bySlug = detailWithRelations()
    .where(eq(vulnerabilities.slug, sql.placeholder("key")))
    .prepare("public_vulnerability_by_slug");
  // 83 CVE ids name more than one record (data README §1.5): the oldest id answers, always the same.
  const byCve = detailWithRelations()
    .where(eq(vulnerabilities.cve, sql.placeholder("key")))
    .orderBy(asc(vulnerabilities.id))
    .limit(1)
    .prepare("public_vulnerability_by_cve");

  const rangeColumns = {
    introduced: affectedRanges.introduced,
    introducedInclusive: affectedRanges.introducedInclusive,
    fixed: affectedRanges.fixed,
    lastAffected: affectedRanges.lastAffected,
    prefix: affectedRanges.prefix,
    version: affectedRanges.version,
    fixedIn: affectedRanges.fixedIn,
    inferredFixedFrom: affectedRanges.inferredFixedFrom,
    productId: products.id,
    kind: products.kind,
    slug: products.slug,
    name: products.name,
    platform: platforms.slug,
    author: products.author,
  };

  const creditColumns = { uuid: researchers.uuid, displayName: researchers.displayName, role: credits.role };

  const productByPath = db
    .select({
      id: products.id,
      platform: platforms.slug,
      kind: products.kind,
      slug: products.slug,
      name: products.name,
      isActive: products.isActive,
      version: products.version,
      author: products.author,
      activeInstalls: products.activeInstalls,
      directoryUrl: products.directoryUrl,
      directoryUpdated: products.directoryUpdated,
      closedAt: products.closedAt,
      vendorName: vendors.vendorName,
      vendorWebsiteUrl: products.vendorWebsiteUrl,
      fixDeadlineDays: products.fixDeadlineDays,
      activatedAt: products.activatedAt,
      plan: products.plan,
      policyMarkdown: products.policyMarkdown,
      policyUpdatedAt: products.policyUpdatedAt,
      securityContactEmail: products.securityContactEmail,
      vendorContactEmail: products.vendorContactEmail,
      vendorAccountEmail: vendors.contactEmail,
      supportEndsOn: products.supportEndsOn,
    })
    .from(products)
    .innerJoin(platforms, eq(platforms.id, products.platformId))
    .leftJoin(vendors, eq(vendors.id, products.vendorId))
    .where(
      and(
        eq(platforms.slug, sql.placeholder("platform")),
        eq(products.kind, sql.placeholder("kind")),
        eq(products.slug, sql.placeholder("slug")),
      ),
    )
    .prepare("public_product_by_path");

  return {
    async findVulnerability(key: { id?: string; cve?: string; slug?: string }) {
      const rows = key.id
        ? await byId.execute({ key: key.id })
        : key.cve
          ? await byCve.execute({ key: key.cve })
          : await bySlug.execute({ key: key.slug ?? "" });
      return rows[0] ?? null;
    },
    /** Every record in id order, `limit` at a time after `afterId` (the bulk OSV export). */
    vulnerabilityBatch: (afterId: string | null, limit: number) =>
      detailBase()
        .where(afterId ? gt(vulnerabilities.id, afterId) : undefined)
        .orderBy(asc(vulnerabilities.id))
        .limit(limit),
    rangesOfMany: (ids: string[]) =>
      db
        .select({ ...rangeColumns, vulnerabilityId: affectedRanges.vulnerabilityId })
        .from(affectedRanges)
        .innerJoin(products, eq(products.id, affectedRanges.productId))
        .innerJoin(platforms, eq(platforms.id, products.platformId))
        .where(inArray(affectedRanges.vulnerabilityId, ids))
        .orderBy(asc(products.kind), asc(products.slug), asc(affectedRanges.position)),
    creditsOfMany: (ids: string[]) =>
      db
        .select({ ...creditColumns, vulnerabilityId: credits.vulnerabilityId })
        .from(credits)
        .innerJoin(researchers, eq(researchers.id, credits.researcherId))
        .where(inArray(credits.vulnerabilityId, ids))
        .orderBy(asc(credits.position)),
    /** The descriptions of these records (the Atom feeds' entry content), in no order. */
    descriptionsOfMany: (ids: string[]) =>
      db
        .select({ id: vulnerabilities.id, description: vulnerabilities.description })
        .from(vulnerabilities)
        .where(inArray(vulnerabilities.id, ids)),

    /**
     * The product at a path: by its slug as written upstream, else by the slug its package identifiers
     * write (`identifierSlugOf`, decision 029: `litho-multipurpose-elementor-wordpress-theme` finds the
     * theme whose upstream slug is `Litho - Multipurpose Elementor WordPress Theme`, `avada` finds
     * `Avada`). The second look runs only for a slug already in that form that found nothing, over
     * the products whose slug is not (a few hundred of the bundled data).
     */
    async findProductByPath(platform: string, kind: string, slug: string) {
      const [row] = await productByPath.execute({ platform, kind, slug });
      if (row || identifierSlugOf(slug) !== slug) return row ?? null;
      const { rows } = await run.query<{ slug: string }>(
        `select p.slug from products p join platforms pl on pl.id = p.platform_id
         where pl.slug = $1 and p.kind = $2 and p.slug !~ '^[a-z0-9._-]+$'
         order by p.id`,
        [platform, kind],
      );
      const upstream = rows.find((candidate) => identifierSlugOf(candidate.slug) === slug);
      if (!upstream) return null;
      const [found] = await productByPath.execute({ platform, kind, slug: upstream.slug });
      return found ?? null;
    },
    /**
     * A product's counters (issue 17's rule for what is fixed), or null when no product has that id.
     * Withdrawn records are not counted, as the product's tabs do not list them (decision 035).
     */
    async productCounters(productId: number): Promise<ProductCounters | null> {
      const { rows } = await run.query<{ known: boolean | null; total: number; fixed: number }>(
        // Fixed: a known fix, or this product's current version past its range (inferred, issue 17).
        `select (select true from products where id = $1) as known,
           count(*)::int as total, count(*) filter (where ${fixedForProductSql("$1")})::int as fixed
         from vulnerabilities v
         where v.id in (select vulnerability_id from affected_ranges where product_id = $1)
           and v.withdrawn_at is null`,
        [productId],
      );
      const row = rows[0];
      if (!row?.known) return null;
      return { vulnerabilities: row.total, present: row.total - row.fixed, fixed: row.fixed };
    },

    async productContributors(productId: number) {
      const { rows } = await run.query<{ uuid: string; display_name: string; vulnerabilities: number }>(
        `select r.uuid, r.display_name, count(*)::int as vulnerabilities
         from credits c
         join researchers r on r.id = c.researcher_id
         join vulnerabilities v on v.id = c.vulnerability_id and v.withdrawn_at is null
         where c.vulnerability_id in (select vulnerability_id from affected_ranges where product_id = $1)
         group by r.id
         order by vulnerabilities desc, r.display_name, r.uuid`,
        [productId],
      );
      return rows;
    },

    async findResearcher(uuid: string) {
      const { rows } = await run.query<{
        id: number;
        uuid: string;
        display_name: string;
        country: string | null;
        website: string | null;
        bio: string | null;
        github: string | null;
        x: string | null;
        mastodon: string | null;
        linkedin: string | null;
      }>(
        `select id, uuid, display_name, country, website, bio, github, x, mastodon, linkedin
         from researchers where uuid = $1`,
        [uuid],
      );
      return rows[0] ?? null;
    },

    /** The points of every credited researcher (CREDIT_POINTS_SQL) and the all-time rank of one. */
    async researcherStanding(researcherId: number) {
      const { rows } = await run.query<{ vulnerabilities: number; points: number; rank: number | null }>(
        `with totals as (
           select c.researcher_id, count(*)::int as vulnerabilities,
             sum(${CREDIT_POINTS_SQL})::int as points
           from credits c
           join vulnerabilities v on v.id = c.vulnerability_id
           join products p on p.id = v.product_id
           where v.withdrawn_at is null
           group by c.researcher_id
         ), ranked as (
           select researcher_id, vulnerabilities, points, rank() over (order by points desc)::int as rank
           from totals
         )
         select vulnerabilities, points, rank from ranked where researcher_id = $1`,
        [researcherId],
      );
      return rows[0] ?? { vulnerabilities: 0, points: 0, rank: null };
    },
  };
}

export type VulnerabilityQueries = ReturnType<typeof createVulnerabilityQueries>;
