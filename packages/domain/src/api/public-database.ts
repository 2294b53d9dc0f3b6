import { z } from "zod";
import { MAX_CHECK_ITEMS } from "../config/public-database-limits.ts";
import { ComponentKind } from "../enums/component-kinds.ts";
import { Severity } from "../enums/severity.ts";
import { PackageIdentifiers } from "../products/package-identifiers.ts";
import { PageQuery, Pagination, wholeNumberParameter } from "./pagination.ts";

/**
 * The public database's API contract (PRODUCT.md §6, ARCHITECTURE.md "API conventions"). Query
 * strings are strict about values (a bad `page` is 422) but ignore unknown parameters, so cache
 * busters never break a call.
 */

export const VulnerabilitySearchQuery = PageQuery.extend({
  q: z.string().trim().max(200, "q must be at most 200 characters.").optional(),
  kind: ComponentKind.optional(),
  type: wholeNumberParameter("type", 1, 42).optional(),
  severity: Severity.optional(),
  patched: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
  year: wholeNumberParameter("year", 1990, 2100).optional(),
  /** true: only the records in CISA's KEV catalog; false: only the others. */
  known_exploited: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
  /** epss: the highest EPSS score first, records without one last. */
  sort: z.enum(["date", "relevance", "epss"]).optional(),
});
export type VulnerabilitySearchQuery = z.infer<typeof VulnerabilitySearchQuery>;

/**
 * A record's listing in CISA's Known Exploited Vulnerabilities catalog (issue 34): when CISA added its
 * CVE, the remediation due date it set for US federal agencies (BOD 22-01), and whether the CVE is
 * known to be used in ransomware campaigns. Null on a record when its CVE is not listed.
 */
export const KnownExploited = z
  .object({
    date_added: z.string(),
    due_date: z.string().nullable(),
    ransomware: z.enum(["Known", "Unknown"]),
  })
  .meta({ id: "KnownExploited", description: "CISA KEV: dates YYYY-MM-DD; ransomware campaign use." });
export type KnownExploited = z.infer<typeof KnownExploited>;

/**
 * A record's FIRST EPSS score (issue 34): the probability, 0 to 1, of exploitation activity in the
 * next 30 days, its percentile among every scored CVE, and the day it was scored. Null without a CVE
 * or a score.
 */
export const Epss = z
  .object({ score: z.number(), percentile: z.number(), date: z.string() })
  .meta({ id: "Epss", description: "FIRST EPSS: score and percentile 0 to 1; date YYYY-MM-DD." });
export type Epss = z.infer<typeof Epss>;

const knownExploitedField = KnownExploited.nullable();
const epssField = Epss.nullable();

export const ProductVulnerabilitiesQuery = PageQuery.extend({
  "filter[tab]": z.enum(["present", "fixed"]).default("present"),
});

export const ProductRef = z.object({
  id: z.number().int(),
  platform: z.string(),
  kind: z.string(),
  slug: z.string(),
  name: z.string(),
  url: z.string(),
});
export type ProductRef = z.infer<typeof ProductRef>;

const Coded = z.object({ code: z.number().int(), label: z.string() });

export const VulnerabilitySummary = z
  .object({
    id: z.string(),
    slug: z.string(),
    url: z.string(),
    title: z.string(),
    cve: z.string().nullable(),
    severity: z.string().nullable(),
    cvss_score: z.number().nullable(),
    type: Coded.nullable(),
    patched: z.boolean(),
    fixed_in: z.string().nullable(),
    inferred_fixed_from: z
      .string()
      .nullable()
      .describe(
        "Without a fixed version: the main product's current version when it is past every affected version, so a later version fixed it (inferred; counted as fixed). Null otherwise.",
      ),
    /** The display form of the main product's first range, e.g. "<= 4.1". */
    affected_versions: z.string().nullable(),
    published_at: z.string().nullable(),
    product: ProductRef,
    known_exploited: knownExploitedField,
    epss: epssField,
    withdrawn_at: z
      .string()
      .nullable()
      .describe("When the record left its source (kept, shown as withdrawn)."),
  })
  .meta({ id: "VulnerabilitySummary" });
export type VulnerabilitySummary = z.infer<typeof VulnerabilitySummary>;

export const VulnerabilityPage = z.object({ data: z.array(VulnerabilitySummary), pagination: Pagination });
export type VulnerabilityPage = z.infer<typeof VulnerabilityPage>;

/** A product as the search and its suggestions show it (issue 17: the product first). */
export const ProductMatch = ProductRef.extend({
  version: z
    .string()
    .nullable()
    .describe("The current version (WordPress.org directory); null when unknown."),
  active_installs: z.number().int().nullable(),
  vulnerabilities: z
    .number()
    .int()
    .describe("Known vulnerabilities: the records with a range on the product."),
  unfixed: z
    .number()
    .int()
    .describe("Of those, the ones without a known fix (the product page's present tab)."),
}).meta({ id: "ProductMatch" });
export type ProductMatch = z.infer<typeof ProductMatch>;

/** A researcher whose name a search's words start (their profile and credited records). */
export const ResearcherMatch = z
  .object({
    uuid: z.string(),
    display_name: z.string(),
    url: z.string(),
    vulnerabilities: z.number().int().describe("Records credited to the researcher."),
  })
  .meta({ id: "ResearcherMatch" });
export type ResearcherMatch = z.infer<typeof ResearcherMatch>;

/** The public search: the products q names, then the records (that product's first). */
export const VulnerabilitySearchPage = VulnerabilityPage.extend({
  products: z
    .array(ProductMatch)
    .describe(
      "The products q names (by name, slug, the first letters of their words, or a name alike), best first; empty without q or for an id.",
    ),
  records_first: ProductRef.nullable().describe(
    "The product whose records are listed before the other matches, when q names one.",
  ),
  researchers: z
    .array(ResearcherMatch)
    .describe("At most 3 researchers whose names start with q's words, the most credited first."),
  did_you_mean: z
    .string()
    .nullable()
    .describe("When q names no product as typed: the slug of the product most alike, as a query to try."),
}).meta({ id: "VulnerabilitySearchPage" });
export type VulnerabilitySearchPage = z.infer<typeof VulnerabilitySearchPage>;

/** The search box's suggestions (`GET /api/v1/autocomplete`). */
export const AutocompleteQuery = z.object({
  q: z.string().trim().max(100, "q must be at most 100 characters.").optional(),
  kind: ComponentKind.optional(),
});
export const Autocomplete = z
  .object({ products: z.array(ProductMatch).describe("At most 8 products, best first.") })
  .meta({ id: "Autocomplete" });
export type Autocomplete = z.infer<typeof Autocomplete>;

const AffectedRangeOut = z.object({
  product: ProductRef,
  introduced: z.string().nullable(),
  introduced_inclusive: z.boolean(),
  fixed: z.string().nullable(),
  last_affected: z.string().nullable(),
  prefix: z.string(),
  version: z.string(),
  fixed_in: z.string().nullable(),
  inferred_fixed_from: z
    .string()
    .nullable()
    .describe(
      "Without a fixed version: this product's current version when it is past the range, so a later version fixed it (inferred). Null otherwise.",
    ),
});
/** One affected range of a public record, with its product. */
export type PublicAffectedRange = z.infer<typeof AffectedRangeOut>;

const Credit = z.object({
  uuid: z.string(),
  display_name: z.string(),
  role: z.string(),
  url: z.string(),
});

export const VulnerabilityDetail = VulnerabilitySummary.extend({
  description: z.string(),
  type_label: z.string().nullable(),
  owasp: z.object({ code: z.number().int(), id: z.string(), label: z.string() }).nullable(),
  required_privilege: Coded.nullable(),
  cvss: z
    .object({
      vector: z.string(),
      version: z.string(),
      score: z.number(),
      severity: z.string(),
      metrics: z.record(z.string(), z.string()),
    })
    .nullable(),
  cwe: z.string().nullable(),
  references: z.array(z.string()),
  affected: z.array(AffectedRangeOut),
  affected_possibly_incomplete: z.boolean(),
  credits: z.array(Credit),
  updated_at: z.string().nullable(),
  record_dates: z
    .object({
      published: z
        .string()
        .describe("The source's publication date, else the day the record was added here."),
      modified: z
        .string()
        .describe(
          "The source's last update (else its publication) when the source dates the record; otherwise the record's last change here.",
        ),
    })
    .describe(
      "The record's dates as every format gives them: the OSV record's published and modified, the CSAF advisory's initial and current release dates, the sitemap's lastmod and the page's structured data.",
    ),
  source: z.string(),
  source_id: z.string().nullable(),
  source_url: z.string().nullable(),
  attribution: z.string().nullable(),
}).meta({ id: "Vulnerability" });
export type VulnerabilityDetail = z.infer<typeof VulnerabilityDetail>;

export const PublicProduct = ProductRef.extend({
  is_active: z.boolean(),
  version: z.string().nullable(),
  author: z.string().nullable(),
  active_installs: z.number().int().nullable(),
  directory_url: z.string().nullable(),
  /** The directory's last update: ISO 8601 when readable, else as the directory wrote it. */
  directory_updated: z.string().nullable(),
  /** When the WordPress.org directory closed or removed the product. */
  closed_at: z.string().nullable(),
  identifiers: PackageIdentifiers.describe(
    "The names the product goes by in other tools: its Package URL, Composer package and CPE (where known).",
  ),
  counters: z.object({
    vulnerabilities: z.number().int(),
    present: z.number().int(),
    fixed: z.number().int(),
  }),
  /** The vendor's disclosure program, when the product is an active program (its security policy). */
  program: z
    .object({
      vendor_name: z.string(),
      vendor_website_url: z.string().nullable(),
      fix_deadline_days: z.number().int(),
      activated_at: z.string().nullable(),
      plan: z.enum(["free", "premium", "both"]),
      /** The published disclosure policy (Markdown): the vendor's text, or the generated one. */
      policy_markdown: z.string(),
      policy_updated_at: z.string().nullable(),
      /** The single point of contact for security (CRA Art. 13(17)). */
      security_contact_email: z.string().nullable(),
      /** YYYY-MM-DD: the declared end of the support period (security updates until then). */
      support_ends_on: z.string().nullable(),
    })
    .nullable(),
}).meta({ id: "PublicProduct" });
export type PublicProduct = z.infer<typeof PublicProduct>;
/** The disclosure program of a product page, when it has an active one. */
export type ProductProgram = NonNullable<PublicProduct["program"]>;

const Contributor = z.object({
  uuid: z.string(),
  display_name: z.string(),
  url: z.string(),
  vulnerabilities: z.number().int(),
});
export type Contributor = z.infer<typeof Contributor>;
export const Contributors = z.object({ data: z.array(Contributor) });
export type Contributors = z.infer<typeof Contributors>;

export const PublicResearcherProfile = z
  .object({
    uuid: z.string(),
    display_name: z.string(),
    country: z.string().nullable(),
    website: z.string().nullable(),
    bio: z.string().nullable(),
    /** PRODUCT.md §5 social handles with their profile URLs; only the ones the researcher gave. */
    social: z.array(
      z.object({
        network: z.enum(["github", "x", "mastodon", "linkedin"]),
        handle: z.string(),
        url: z.string(),
      }),
    ),
    url: z.string(),
    vulnerabilities: z.number().int(),
    /** PRODUCT.md §5: all-time points. */
    points: z.number().int(),
    /** All-time rank among credited researchers (1 = most points; equal points share a rank). */
    rank: z.number().int().nullable(),
  })
  .meta({ id: "ResearcherProfile" });
export type PublicResearcherProfile = z.infer<typeof PublicResearcherProfile>;

export const DatabaseCounts = z.object({
  /** Every count leaves withdrawn records out. */
  vulnerabilities: z.number().int(),
  products: z.number().int(),
  researchers: z.number().int(),
  patched: z.number().int(),
  by_kind: z.record(z.string(), z.number().int()),
  by_severity: z.record(z.string(), z.number().int()),
  /** When the public data last changed (the data version's move or a record's change). */
  updated_at: z.string().nullable(),
});
export type DatabaseCounts = z.infer<typeof DatabaseCounts>;

/** Spec §4/§9: the footer's counters (`FOOTER_METRICS_MAX_AGE_SECONDS`: config/public-database-limits.ts). */
export const FooterMetrics = z
  .object({ active_vdp_directory_count: z.number().int().nonnegative() })
  .meta({ id: "FooterMetrics" });
export type FooterMetrics = z.infer<typeof FooterMetrics>;

/** A check item's version may be `latest`: the product's current version, as the database knows it. */
export const CHECK_LATEST_VERSION = "latest";
/** A version number starts with a digit (5.8.1, 2.0.0-beta1, 10); anything else is not a version. */
const VERSION_NUMBER = /^\d[0-9A-Za-z.+~_-]*$/;
export const CHECK_VERSION_MESSAGE =
  "Not a version: send a version number such as 5.8.1, or latest for the product's current version.";

export const CheckRequest = z.object({
  items: z
    .array(
      z.object({
        kind: ComponentKind,
        slug: z.string().trim().min(1).max(200).meta({
          description: "The product's slug; capitals do not matter (Contact-Form-7 is contact-form-7).",
        }),
        version: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .refine(
            (version) => VERSION_NUMBER.test(version) || version.toLowerCase() === CHECK_LATEST_VERSION,
            CHECK_VERSION_MESSAGE,
          )
          .meta({
            description:
              "The installed version (a number such as 5.8.1), or `latest` for the product's current version.",
          }),
      }),
    )
    .min(1)
    .max(MAX_CHECK_ITEMS, `At most ${MAX_CHECK_ITEMS} items per request.`),
});
export type CheckRequest = z.infer<typeof CheckRequest>;

/** One vulnerability affecting a checked version. */
export const CheckedVulnerability = z.object({
  id: z.string(),
  title: z.string(),
  cve: z.string().nullable(),
  severity: z.string().nullable(),
  fixed_in: z.string().nullable(),
  fixed_in_inferred: z.string().nullable().meta({
    description:
      "No fix is listed, but the product's current version is above the affected range: fixed in a later version, inferred from that current version (this one).",
  }),
  affected_versions: z.string().meta({
    description: "The range that includes the checked version, with every bound (>= 5.8, < 5.8.3).",
  }),
  url: z.string(),
  known_exploited: knownExploitedField,
  epss: epssField,
});
export type CheckedVulnerability = z.infer<typeof CheckedVulnerability>;

export const CheckResponse = z.object({
  results: z.array(
    z.object({
      kind: z.string(),
      slug: z.string(),
      version: z.string(),
      known: z.boolean().meta({
        description:
          "Whether the database knows the product. An unknown product has no known vulnerabilities, which does not mean it has none.",
      }),
      checked_version: z.string().nullable().meta({
        description:
          "The version compared: the one sent, or the product's current version for `latest` (null when that is unknown: nothing was compared).",
      }),
      vulnerabilities: z.array(CheckedVulnerability),
    }),
  ),
});
export type CheckResponse = z.infer<typeof CheckResponse>;

/**
 * The home-database prefix of our OSV ids: OSV's `x_` prefix for a database without a registered
 * prefix, then our name (decision 025). A record's OSV id is this prefix and its uuid.
 */
export const OSV_ID_PREFIX = "x_PRESSGUARD-";

/** The OSV id of the record with this uuid: `x_PRESSGUARD-<uuid>`. */
export const osvIdOf = (recordId: string) => `${OSV_ID_PREFIX}${recordId}`;

/**
 * The file name of a record's CSAF advisory (CSAF 2.0 §5.1, decision 029): its tracking id (the OSV
 * id) in lower case, every character but `+`, `-`, a–z and 0–9 as `_`, then `.json` —
 * `x_pressguard-<uuid>.json`, served at `/api/v1/csaf/<file name>`.
 */
export function csafFileNameOf(recordId: string): string {
  return `${osvIdOf(recordId)
    .toLowerCase()
    .replace(/[^+\-a-z0-9]+/g, "_")}.json`;
}

/**
 * OSV (https://ossf.github.io/osv-schema/): the fields Pressguard writes, declared for the OpenAPI
 * document; open to the schema's others. osv.ts builds it and the tests validate it against the
 * official schema.
 */
const OsvEvent = z.looseObject({
  introduced: z.string().optional(),
  fixed: z.string().optional(),
  last_affected: z.string().optional(),
  limit: z.string().optional(),
});
const OsvFields = z.looseObject({
  schema_version: z.string(),
  id: z.string(),
  modified: z.string(),
  published: z.string().optional(),
  withdrawn: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  related: z.array(z.string()).optional(),
  summary: z.string().optional(),
  details: z.string().optional(),
  severity: z.array(z.looseObject({ type: z.string(), score: z.string() })).optional(),
  affected: z
    .array(
      z.looseObject({
        package: z.looseObject({ ecosystem: z.string(), name: z.string(), purl: z.string().optional() }),
        ranges: z
          .array(z.looseObject({ type: z.string(), repo: z.string().optional(), events: z.array(OsvEvent) }))
          .optional(),
        versions: z.array(z.string()).optional(),
        ecosystem_specific: z.record(z.string(), z.unknown()).optional(),
        database_specific: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  references: z.array(z.looseObject({ type: z.string(), url: z.string() })).optional(),
  credits: z
    .array(
      z.looseObject({
        name: z.string(),
        contact: z.array(z.string()).optional(),
        type: z.string().optional(),
      }),
    )
    .optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export const OsvRecord = OsvFields.meta({
  id: "OsvRecord",
  description:
    `An OSV record (schema_version 1.7.5; id "${OSV_ID_PREFIX}<uuid>", CVE ids in aliases). Plugins and ` +
    'themes are Composer packages of WPackagist (ecosystem "Packagist:https://wpackagist.org", name ' +
    '"wpackagist-plugin/<slug>" or "wpackagist-theme/<slug>"); WordPress core is "roots/wordpress" on ' +
    "Packagist. modified is the source's last update (else its publication) when the source dates the " +
    "record, otherwise its last change here; published is the source's publication date, else the day " +
    "the record was created here (the record answer's record_dates). database_specific keeps " +
    "source_id, source_url, attribution, known_exploited and epss.",
});

/**
 * CSAF 2.0 (https://docs.oasis-open.org/csaf/csaf/v2.0/): its three parts as Pressguard fills them,
 * declared for the OpenAPI document and open to the standard's other fields. csaf.ts builds it and
 * the tests run the reference validator on it.
 */
const CsafFields = z.looseObject({
  document: z.looseObject({
    category: z.string(),
    csaf_version: z.string(),
    title: z.string(),
    lang: z.string().optional(),
    publisher: z.looseObject({ category: z.string(), name: z.string(), namespace: z.string() }),
    tracking: z.looseObject({
      id: z.string(),
      status: z.string(),
      version: z.string(),
      initial_release_date: z.string(),
      current_release_date: z.string(),
      revision_history: z.array(z.looseObject({ date: z.string(), number: z.string(), summary: z.string() })),
    }),
    distribution: z.looseObject({}).optional(),
    notes: z.array(z.looseObject({ category: z.string(), text: z.string() })).optional(),
    references: z
      .array(z.looseObject({ category: z.string().optional(), summary: z.string(), url: z.string() }))
      .optional(),
  }),
  product_tree: z.looseObject({ branches: z.array(z.looseObject({})).optional() }).optional(),
  vulnerabilities: z
    .array(
      z.looseObject({
        cve: z.string().optional(),
        cwe: z.looseObject({ id: z.string(), name: z.string() }).optional(),
        title: z.string().optional(),
        product_status: z.record(z.string(), z.array(z.string())).optional(),
        remediations: z.array(z.looseObject({ category: z.string(), details: z.string() })).optional(),
        scores: z.array(z.looseObject({ products: z.array(z.string()) })).optional(),
      }),
    )
    .optional(),
});
export const CsafAdvisoryDocument = CsafFields.meta({
  id: "CsafAdvisory",
  description:
    'A CSAF 2.0 security advisory (document.category "csaf_security_advisory", TLP:WHITE), valid against ' +
    `the official CSAF 2.0 JSON schema. tracking.id is the record's OSV id (${OSV_ID_PREFIX}<uuid>); ` +
    "initial_release_date and current_release_date are the OSV record's published and modified. The " +
    "product tree names each affected range (a vers string) and each fixed version of a plugin, theme " +
    "or core, with its purl (and CPE for core); vulnerabilities[0] has the CVE and CWE when known, the " +
    "CVSS v3 score, the product status (known_affected, fixed, including fixes inferred from a " +
    "product's current version), remediations and the credited researchers. The source's attribution " +
    "and licence are in a legal_disclaimer note and distribution.text. CISA KEV is an exploit_status " +
    "threat, EPSS a note.",
});

const LeaderboardEntry = z.object({
  rank: z.number().int(),
  uuid: z.string(),
  display_name: z.string(),
  url: z.string(),
  points: z.number().int(),
  vulnerabilities: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

export const Leaderboard = z
  .object({
    type: z.enum(["monthly", "yearly", "all-time"]),
    period: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
    data: z.array(LeaderboardEntry),
  })
  .meta({ id: "Leaderboard" });
export type Leaderboard = z.infer<typeof Leaderboard>;

const Count = z.object({ key: z.string(), label: z.string(), count: z.number().int() });

export const Statistics = z
  .object({
    platform: z.string(),
    timeframe: z.string(),
    total: z.number().int(),
    by_kind: z.array(Count),
    by_type: z.array(Count),
    by_severity: z.array(Count),
    patched: z.object({ patched: z.number().int(), unpatched: z.number().int() }),
    /** Dated records only, by month of publication (YYYY-MM); months without a record are left out. */
    monthly: z.array(
      z.object({
        month: z.string(),
        count: z.number().int(),
        /** The month's count split by severity band; `unknown` has no CVSS score. */
        by_severity: z.object({
          critical: z.number().int(),
          high: z.number().int(),
          medium: z.number().int(),
          low: z.number().int(),
          none: z.number().int(),
          unknown: z.number().int(),
        }),
      }),
    ),
    top_researchers: z.array(LeaderboardEntry),
    /**
     * Every year with records, whatever the timeframe, newest first: the years to choose from. As a
     * year's statistics do, an undated record counts in its CVE's year.
     */
    years: z.array(z.object({ year: z.number().int(), count: z.number().int() })),
  })
  .meta({ id: "Statistics" });
export type Statistics = z.infer<typeof Statistics>;
/** One month of the statistics: its count, split by severity band. */
export type MonthlyCount = Statistics["monthly"][number];
export type MonthlySeverity = keyof MonthlyCount["by_severity"];

/** The report form's product picker (PRODUCT.md §3): every product, not only active programs. */
export const ProductSearchQuery = PageQuery.extend({
  q: z.string().trim().max(200, "q must be at most 200 characters.").optional(),
  kind: ComponentKind.optional(),
});

export const ProductSearchPage = z
  .object({
    data: z.array(
      ProductRef.extend({
        is_active: z.boolean(),
        is_lobby_product: z.boolean(),
        vulnerabilities: z.number().int(),
      }),
    ),
    pagination: Pagination,
  })
  .meta({ id: "ProductSearchPage" });
export type ProductSearchPage = z.infer<typeof ProductSearchPage>;
export type ProductSearchItem = ProductSearchPage["data"][number];

export const ProgramDirectoryQuery = PageQuery.extend({
  q: z.string().trim().max(200, "q must be at most 200 characters.").optional(),
});

export const ProgramDirectory = z
  .object({
    data: z.array(ProductRef.extend({ vulnerabilities: z.number().int() })),
    pagination: Pagination,
  })
  .meta({ id: "ProgramDirectory" });
export type ProgramDirectory = z.infer<typeof ProgramDirectory>;
