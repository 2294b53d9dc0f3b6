import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users, vendors } from "./accounts.ts";

/** PostgreSQL's full text search document type (Drizzle has no built-in column for it). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** A platform of the public database; only `wordpress` today (spec §2 `{platform}`). */
export const platforms = pgTable("platforms", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
});

/**
 * A software item: the public database's product and, once a vendor owns it, a program
 * (spec §3 "Program (software item) list entry").
 */
/**
 * What follows a product name's brand: its tagline ("GiveWP – Donation Plugin and Fundraising
 * Platform", "UpdraftPlus: WordPress Backup & Migration Plugin"). The search matches the brand
 * exactly (issue 17), through the index on it below.
 */
export const PRODUCT_TAGLINE_PATTERN = "[[:space:]]*(:|[[:space:]][–—|-])[[:space:]].*$";

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    platformId: integer("platform_id")
      .notNull()
      .references(() => platforms.id),
    /** Component kind: plugin | theme | core. */
    kind: text("kind").notNull(),
    /** Kept exactly as the source gives it; imported premium slugs may contain capitals. */
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    version: text("version"),
    productUrl: text("product_url"),
    description: text("description"),
    dependencies: text("dependencies"),
    vendorContactEmail: text("vendor_contact_email"),
    vendorWebsiteUrl: text("vendor_website_url"),
    isActive: boolean("is_active").notNull().default(false),
    isLobbyProduct: boolean("is_lobby_product").notNull().default(false),
    /** The owning vendor organisation: the product is then that vendor's program (decision 006). */
    vendorId: integer("vendor_id").references(() => vendors.id, { onDelete: "set null" }),
    /** The software's plan: free, premium (labelled Paid) or both. */
    plan: text("plan").notNull().default("free"),
    /** When the program became active (pending → active). */
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    /** Days a vendor has to fix a validated report, from the notification (PRODUCT.md §2). */
    fixDeadlineDays: smallint("fix_deadline_days").notNull().default(30),
    /**
     * The program's coordinated vulnerability disclosure policy as the vendor edited it (Markdown,
     * started from the generated template); null: the generated policy (issue 20, Cyber Resilience Act).
     */
    policyMarkdown: text("policy_markdown"),
    policyUpdatedAt: timestamp("policy_updated_at", { withTimezone: true }),
    /** The program's single point of contact for security (CRA Art. 13(17)); null: the vendor's contact e-mail. */
    securityContactEmail: text("security_contact_email"),
    /** The declared end of the support period: security updates until this date (CRA Art. 13(8)). */
    supportEndsOn: date("support_ends_on"),
    /** Host names of the two URLs (lower case, without "www."): lobby matching and claim checks. */
    websiteHost: text("website_host").generatedAlwaysAs(
      sql`lower(substring(vendor_website_url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:www\\.)?([^/:?#@]+)'))`,
    ),
    productHost: text("product_host").generatedAlwaysAs(
      sql`lower(substring(product_url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:www\\.)?([^/:?#@]+)'))`,
    ),
    /** WordPress.org directory metadata, when known. */
    author: text("author"),
    /** The author's WordPress.org profile and the plugin's contributors' usernames: routes to a vendor (issue 19). */
    authorProfile: text("author_profile"),
    contributors: text("contributors").array(),
    activeInstalls: integer("active_installs"),
    rating: smallint("rating"),
    numRatings: integer("num_ratings"),
    requiresWp: text("requires_wp"),
    testedWp: text("tested_wp"),
    requiresPhp: text("requires_php"),
    directoryUpdated: text("directory_updated"),
    directoryAdded: date("directory_added"),
    directoryUrl: text("directory_url"),
    /** SHA-256 of the plugin directory line last imported into this row (an unchanged line is skipped). */
    directorySourceHash: text("directory_source_hash"),
    tags: text("tags").array(),
    versions: text("versions").array(),
    /**
     * The directory's live state (issue 34, data source `wporg`): when the directory closed or removed
     * the product (null: open, or not known), and when the directory was last asked about it. The
     * current version, installs and last update stay in `version`, `active_installs` and
     * `directory_updated`.
     */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    directoryCheckedAt: timestamp("directory_checked_at", { withTimezone: true }),
    /** Full text search over name and slug ('simple': no stemming, product names are not English). */
    search: tsvector("search").generatedAlwaysAs(
      sql`to_tsvector('simple', coalesce(name, '') || ' ' || slug)`,
    ),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("products_platform_kind_slug_key").on(table.platformId, table.kind, table.slug),
    index("products_vendor_idx").on(table.vendorId, table.isActive, table.id),
    /** A vendor's program list in name order (decision 006): its first page is an index scan. */
    index("products_vendor_name_idx").on(table.vendorId, table.isActive, sql`lower(${table.name})`, table.id),
    index("products_active_idx").on(table.isActive),
    /** The batch check matches slugs whatever their case (`Contact-Form-7` is contact-form-7). */
    index("products_kind_lower_slug_idx").on(table.kind, sql`lower(${table.slug})`),
    /** The brand of the name, lower case (search/product-queries.ts SHORT_NAME_SQL). */
    index("products_short_name_idx").on(
      sql`lower(regexp_replace(${table.name}, ${sql.raw(`'${PRODUCT_TAGLINE_PATTERN}'`)}, ''))`,
    ),
    index("products_search_idx").using("gin", table.search),
    /** Typo and prefix matching of product names and slugs (pg_trgm, migration 0018; issue 17). */
    index("products_name_trgm_idx").using("gin", sql`lower(${table.name}) gin_trgm_ops`),
    index("products_slug_trgm_idx").using("gin", sql`${table.slug} gin_trgm_ops`),
    index("products_website_host_idx").on(table.websiteHost),
    index("products_product_host_idx").on(table.productHost),
    check("products_kind_check", sql`${table.kind} in ('plugin', 'theme', 'core')`),
    check("products_plan_check", sql`${table.plan} in ('free', 'premium', 'both')`),
    check("products_fix_deadline_days_check", sql`${table.fixDeadlineDays} between 7 and 90`),
  ],
);

/** A public vulnerability record (PRODUCT.md §6). */
export const vulnerabilities = pgTable(
  "vulnerabilities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** URL slug under /database/{platform}/{kind}/{product}/vulnerability/{slug}. */
    slug: text("slug").notNull().unique(),
    /** The main affected product; every affected product has a row in affected_ranges. */
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    /**
     * The main product's kind, copied by triggers (migration 0013) so that the search filters on it
     * without joining products for every match; never written by the application.
     */
    productKind: text("product_kind").notNull().default(""),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** The vulnerability type as the source words it, e.g. "Reflected Cross-Site Scripting". */
    typeLabel: text("type_label"),
    /** Vulnerability type code 1–42. */
    typeCode: smallint("type_code"),
    /** OWASP Top 10 category code 41–50. */
    owaspCode: smallint("owasp_code"),
    /** Required WordPress role code 1–9. */
    requiredPrivilege: smallint("required_privilege"),
    cvssVector: text("cvss_vector"),
    cvssScore: numeric("cvss_score", { precision: 3, scale: 1, mode: "number" }),
    cvssVersion: text("cvss_version"),
    /** none | low | medium | high | critical, from the CVSS base score. */
    severity: text("severity"),
    cve: text("cve"),
    cwe: text("cwe"),
    references: jsonb("references").$type<string[]>().notNull().default([]),
    fixedIn: text("fixed_in"),
    patched: boolean("patched").notNull().default(false),
    /**
     * The main product's current version when the record has no fix but that version is past the
     * main product's affected range: fixed in a later version, inferred (issue 17). Kept by
     * db/infer-fixed.ts after every import and publication.
     */
    inferredFixedFrom: text("inferred_fixed_from"),
    affectedPossiblyIncomplete: boolean("affected_possibly_incomplete").notNull().default(false),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    sourceUpdatedAt: timestamp("source_updated_at", { withTimezone: true }),
    /** Where the record comes from: "wordfence-intelligence" for the seed, "pressguard" for our own. */
    source: text("source").notNull(),
    sourceUrl: text("source_url"),
    attribution: text("attribution"),
    /**
     * SHA-256 of the source line this row was last imported from: an import skips a record whose line
     * is unchanged (its ranges and credits too), so re-importing unchanged data costs a read, not a write.
     */
    sourceHash: text("source_hash"),
    /**
     * The public search's document: the names and slugs of every product with a range on the record
     * (weight A) and the title and description. Kept by triggers (migration 0012), so a search is one
     * GIN scan.
     */
    searchDocument: tsvector("search_document").notNull().default(sql`''::tsvector`),
    /**
     * When the record left its upstream feed (issue 34, decision 035): kept and shown as withdrawn,
     * never deleted; cleared when the feed lists it again.
     */
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("vulnerabilities_product_idx").on(table.productId),
    /**
     * The words and the filters a search combines with them (btree_gin, migration 0024): one index
     * scan finds `contact form` rated high, instead of reading every `contact form` record to drop
     * three in four (issue 17's precise searches).
     */
    index("vulnerabilities_search_filters_idx").using(
      "gin",
      table.searchDocument,
      table.severity,
      table.productKind,
      table.typeCode,
    ),
    index("vulnerabilities_cve_idx").on(table.cve),
    /** The search finds a CWE id (`CWE-79`) as a filter on it. */
    index("vulnerabilities_cwe_idx").on(table.cwe),
    index("vulnerabilities_published_idx").on(table.publishedAt),
    /** The database's date order (newest first, undated by CVE id): its first page is an index scan. */
    index("vulnerabilities_date_order_idx").on(
      table.publishedAt.desc().nullsLast(),
      table.cve.desc().nullsLast(),
      table.id,
    ),
    check(
      "vulnerabilities_severity_check",
      sql`${table.severity} in ('none', 'low', 'medium', 'high', 'critical')`,
    ),
  ],
);

/**
 * What CISA and FIRST say of a record's CVE (issue 34, decision 036): a narrow row of its own, so
 * the daily EPSS file rewrites 226,000 rows of three columns, not 226,000 wide records with their
 * search document (130–150 µs a record for the GIN and btree entries of a record's new version,
 * against about 10 µs here). Written only by the KEV and EPSS sources (data-sources/annotation-queries.ts).
 */
export const vulnerabilitySignals = pgTable(
  "vulnerability_signals",
  {
    vulnerabilityId: uuid("vulnerability_id")
      .primaryKey()
      .references(() => vulnerabilities.id, { onDelete: "cascade" }),
    /** CISA KEV listing of the record's CVE: `{ date_added, due_date, ransomware }`. */
    knownExploited: jsonb("known_exploited").$type<{
      date_added: string;
      due_date: string | null;
      ransomware: "Known" | "Unknown";
    }>(),
    /** FIRST EPSS score of the record's CVE: `{ score, percentile, date }`. */
    epss: jsonb("epss").$type<{ score: number; percentile: number; date: string }>(),
  },
  (table) => [
    /**
     * The database sorted by EPSS: its first page walks the scores from the highest (search/queries.ts).
     * Without it, `sort=epss` read and sorted every record (250–740 ms on the bundled 37,205).
     */
    index("vulnerability_signals_epss_idx")
      .on(sql`((${table.epss}->>'score')::float8) desc`)
      .where(sql`${table.epss} is not null`),
    /** The known-exploited filter and the vendors' CRA suggestions read the few listed records. */
    index("vulnerability_signals_known_exploited_idx")
      .on(table.vulnerabilityId)
      .where(sql`${table.knownExploited} is not null`),
  ],
);

/** One affected version range of one product (OSV-style bounds plus the spec's prefix form). */
export const affectedRanges = pgTable(
  "affected_ranges",
  {
    id: serial("id").primaryKey(),
    vulnerabilityId: uuid("vulnerability_id")
      .notNull()
      .references(() => vulnerabilities.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    position: smallint("position").notNull().default(0),
    introduced: text("introduced"),
    introducedInclusive: boolean("introduced_inclusive").notNull().default(true),
    fixed: text("fixed"),
    lastAffected: text("last_affected"),
    /** Spec §3 version prefix: "<=", "<" or "" (a specific version). */
    prefix: text("prefix").notNull(),
    version: text("version").notNull(),
    fixedIn: text("fixed_in"),
    /**
     * The product's current version when the record has no fix and that version is past this
     * range's upper bound: fixed in a later version, inferred (issue 17; db/infer-fixed.ts).
     */
    inferredFixedFrom: text("inferred_fixed_from"),
  },
  (table) => [
    uniqueIndex("affected_ranges_vuln_product_position_key").on(
      table.vulnerabilityId,
      table.productId,
      table.position,
    ),
    index("affected_ranges_product_idx").on(table.productId),
    check("affected_ranges_prefix_check", sql`${table.prefix} in ('<=', '<', '')`),
  ],
);

/** A researcher: a platform user's public profile, or a name credited by an imported record. */
export const researchers = pgTable(
  "researchers",
  {
    id: serial("id").primaryKey(),
    uuid: uuid("uuid").notNull().unique().defaultRandom(),
    displayName: text("display_name").notNull(),
    /** lower(trim(name)) for researchers known only by an imported credit: makes re-imports idempotent. */
    creditKey: text("credit_key").unique(),
    /** The user account of a researcher who signed up (null for names known only from credits). */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    country: text("country"),
    website: text("website"),
    bio: text("bio"),
    /** Social handles without their URL (PRODUCT.md §5): `octocat`, `@user@host` for Mastodon. */
    github: text("github"),
    x: text("x"),
    mastodon: text("mastodon"),
    linkedin: text("linkedin"),
    /** The researcher saved the profile once (`/researchers/create` done). */
    profileCompletedAt: timestamp("profile_completed_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("researchers_user_idx").on(table.userId),
    /** The search's researchers by name (search/product-queries.ts researchersNamed). */
    index("researchers_display_name_search_idx").using(
      "gin",
      sql`to_tsvector('simple', ${table.displayName})`,
    ),
  ],
);

/** A researcher credited on a vulnerability, in the source's order. */
export const credits = pgTable(
  "credits",
  {
    vulnerabilityId: uuid("vulnerability_id")
      .notNull()
      .references(() => vulnerabilities.id, { onDelete: "cascade" }),
    researcherId: integer("researcher_id")
      .notNull()
      .references(() => researchers.id),
    position: smallint("position").notNull().default(0),
    /** finder | reporter | coordinator … (the CVE credit type). */
    role: text("role").notNull().default("finder"),
  },
  (table) => [
    primaryKey({ columns: [table.vulnerabilityId, table.researcherId] }),
    index("credits_researcher_idx").on(table.researcherId),
  ],
);
