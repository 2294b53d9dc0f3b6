import { csafFileNameOf, DEFIANT_LICENSE, MITRE_CVE_LICENSE, OSV_ID_PREFIX } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPlugins, importVulnerabilities } from "../../db/import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_PLUGIN,
  WEB_DIRECTORY_SQLI,
} from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { csafErrorsOf, csafSchema, validateCsaf } from "../../test/csaf-schema.ts";
import { csafValidatorFindings, csafValidatorTestNames } from "../../test/csaf-validator.ts";
import { csafPathOf } from "./csaf.ts";
import { cweNameOf } from "./cwe-names.ts";

/**
 * CSAF 2.0 advisories (decision 029) of real seed records and variants of them that cover every
 * shape: core, theme, plugin, fixed, unfixed, a fix inferred from the current version, several
 * products and ranges, an exclusive lower bound, no CVSS, CVSS 3.0, no CWE, credited researchers.
 * Each is validated against the official schema (../shared/schemas/csaf-2.0).
 */

const APP = "https://db.example.test";

/** A theme with no CVSS vector and no CVE: SMASH_BALLOON_XSS moved to a theme. */
const THEME_NO_CVSS = {
  ...SMASH_BALLOON_XSS,
  id: "c5af0000-0000-4000-8000-000000000001",
  cve: null,
  title: "Theme XSS <= 2.0 - Reflected Cross-Site Scripting",
  software_type: "theme",
  slug: "csaf-test-theme",
  software_name: "CSAF Test Theme",
  affected: [{ last_affected: "2.0", prefix: "<=", version: "2.0" }],
  fixed_in: null,
  software: [
    {
      software_type: "theme",
      slug: "csaf-test-theme",
      software_name: "CSAF Test Theme",
      affected: [{ last_affected: "2.0", prefix: "<=", version: "2.0" }],
      fixed_in: null,
    },
  ],
  cvss_score: null,
  cvss_vector: null,
  cvss_version: null,
  cvss_rating: null,
};

/** CVSS 3.0: WEB_DIRECTORY_SQLI with its vector in version 3.0. */
const CVSS_30 = {
  ...WEB_DIRECTORY_SQLI,
  id: "c5af0000-0000-4000-8000-000000000002",
  cve: "CVE-2099-0002",
  title: "Web Directory Free <= 1.6.9 - SQL Injection (CVSS 3.0)",
  cvss_vector: "CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
  cvss_version: "3.0",
};

/** Core with two ranges: after 5.8 (5.8 itself not affected) before 5.8.3, and exactly 5.9. */
const CORE_RANGES = [
  { introduced: "5.8", introduced_inclusive: false, fixed: "5.8.3", prefix: "<", version: "5.8.3" },
  { introduced: "5.9", introduced_inclusive: true, last_affected: "5.9", prefix: "", version: "5.9" },
];
const CORE_TWO_RANGES = {
  ...CORE_SQLI,
  id: "c5af0000-0000-4000-8000-000000000003",
  cve: null,
  affected: CORE_RANGES,
  software: [{ ...CORE_SQLI.software[0], affected: CORE_RANGES }],
};

/** An unfixed plugin whose current version (3.0) is past its range (<= 2.0): fixed, inferred. */
const INFERRED = {
  ...WEB_DIRECTORY_SQLI,
  id: "c5af0000-0000-4000-8000-000000000004",
  cve: null,
  title: "CSAF Inferred <= 2.0 - Unauthenticated SQL Injection",
  slug: "csaf-inferred-plugin",
  software_name: "CSAF Inferred",
  affected: [{ last_affected: "2.0", prefix: "<=", version: "2.0" }],
  fixed_in: null,
  software: [
    {
      software_type: "plugin",
      slug: "csaf-inferred-plugin",
      software_name: "CSAF Inferred",
      affected: [{ last_affected: "2.0", prefix: "<=", version: "2.0" }],
      fixed_in: null,
    },
  ],
};

/** Informational (CVSS 0.0, severity None), no CVE, no fixed version: a plugin's every version. */
const INFORMATIONAL = {
  ...VIDEO_GALLERY_ALL_VERSIONS,
  id: "c5af0000-0000-4000-8000-000000000005",
  title: "CSAF Informational <= 1.0 - Information Exposure",
  slug: "csaf-informational-plugin",
  software_name: "CSAF Informational",
  affected: [{ last_affected: "1.0", prefix: "<=", version: "1.0" }],
  software: [
    {
      software_type: "plugin",
      slug: "csaf-informational-plugin",
      software_name: "CSAF Informational",
      affected: [{ last_affected: "1.0", prefix: "<=", version: "1.0" }],
      fixed_in: null,
    },
  ],
  cvss_score: 0,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:H/UI:R/S:U/C:N/I:N/A:N",
  cvss_rating: "None",
};

/** The one upstream slug of the bundled data with spaces (issue 38): a theme, no fixed version. */
const LITHO_SLUG = "Litho - Multipurpose Elementor WordPress Theme";
const LITHO = {
  ...VIDEO_GALLERY_ALL_VERSIONS,
  id: "c5af0000-0000-4000-8000-000000000006",
  title: "Litho <= 3.0 - Unauthenticated Arbitrary File Deletion",
  software_type: "theme",
  slug: LITHO_SLUG,
  software_name: "Litho",
  affected: [{ last_affected: "3.0", prefix: "<=", version: "3.0" }],
  software: [
    {
      software_type: "theme",
      slug: LITHO_SLUG,
      software_name: "Litho",
      affected: [{ last_affected: "3.0", prefix: "<=", version: "3.0" }],
      fixed_in: null,
    },
  ],
  cvss_score: 9.1,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H",
  cvss_rating: "Critical",
};

const RECORDS = [
  SMASH_BALLOON_XSS,
  MODERN_EVENTS_SSRF,
  WEB_DIRECTORY_SQLI,
  VIDEO_GALLERY_ALL_VERSIONS,
  CORE_SQLI,
  THEME_NO_CVSS,
  CVSS_30,
  CORE_TWO_RANGES,
  INFERRED,
  INFORMATIONAL,
  LITHO,
];

interface Product {
  name: string;
  product_id: string;
  product_identification_helper: { purl: string; cpe?: string };
}
interface Branch {
  category: string;
  name: string;
  branches?: Branch[];
  product?: Product;
}
interface Advisory {
  document: {
    category: string;
    csaf_version: string;
    title: string;
    publisher: { category: string; name: string; namespace: string };
    distribution: { text: string; tlp: { label: string } };
    notes: { category: string; text: string }[];
    references: { category: string; url: string }[];
    tracking: {
      id: string;
      status: string;
      version: string;
      initial_release_date: string;
      current_release_date: string;
      revision_history: { number: string; date: string }[];
    };
  };
  product_tree: { branches: Branch[] };
  vulnerabilities: {
    cve?: string;
    cwe?: { id: string; name: string };
    title: string;
    product_status: { known_affected: string[]; fixed?: string[] };
    remediations: { category: string; details: string; product_ids: string[]; url?: string }[];
    scores?: { cvss_v3: Record<string, unknown>; products: string[] }[];
    acknowledgments?: { names: string[]; urls?: string[] }[];
    references: { category: string; url: string }[];
  }[];
}

let harness: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: APP });
  const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record));
  expect((await importVulnerabilities(harness.database, lines(RECORDS))).rejected).toEqual([]);
  const plugins = [
    WEB_DIRECTORY_PLUGIN,
    { ...WEB_DIRECTORY_PLUGIN, slug: "csaf-inferred-plugin", name: "CSAF Inferred", version: "3.0" },
  ];
  expect((await importPlugins(harness.database, lines(plugins))).rejected).toEqual([]);
});
afterAll(() => harness.close());

async function advisoryOf(id: string): Promise<Advisory> {
  const response = await harness.app.inject({ method: "GET", url: csafPathOf(id) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  return response.json();
}

/** Every product of a tree, with the categories of the branches above it. */
function productsOf(branches: Branch[], path: string[] = []): { path: string[]; product: Product }[] {
  return branches.flatMap((branch) => [
    ...(branch.product ? [{ path: [...path, branch.category], product: branch.product }] : []),
    ...productsOf(branch.branches ?? [], [...path, branch.category]),
  ]);
}
const branchNamed = (advisory: Advisory, category: string) =>
  productsOf(advisory.product_tree.branches).filter((item) => item.path.at(-1) === category);

describe("the official CSAF 2.0 schema", () => {
  it("is draft 2020-12, resolves the CVSS schemas offline and names what is wrong in a bad document", async () => {
    expect(csafSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const good = await advisoryOf(SMASH_BALLOON_XSS.id);
    expect(csafErrorsOf([good])).toEqual([]);
    const bad = structuredClone(good) as unknown as {
      document: { tracking: { version: string }; publisher: { category: string } };
      vulnerabilities: { scores: { cvss_v3: { baseSeverity: string } }[]; cwe?: unknown }[];
    };
    bad.document.tracking.version = "v1";
    bad.document.publisher.category = "aggregator";
    bad.vulnerabilities[0]!.scores[0]!.cvss_v3.baseSeverity = "Medium";
    bad.vulnerabilities[0]!.cwe = { id: "CWE-79" };
    expect(validateCsaf(bad)).toBe(false);
    const paths = new Set((validateCsaf.errors ?? []).map((error) => error.instancePath));
    expect([...paths]).toEqual(
      expect.arrayContaining([
        "/document/tracking/version",
        "/document/publisher/category",
        "/vulnerabilities/0/cwe",
      ]),
    );
    expect([...paths].some((path) => path.startsWith("/vulnerabilities/0/scores/0/cvss_v3"))).toBe(true);
  });
});

describe("the reference validator (BSI's csaf-validator-lib)", () => {
  it("runs the strict schema test, every mandatory test and every recommended test, none over the network", () => {
    expect(csafValidatorTestNames[0]).toBe("csaf_2_0_strict");
    const mandatory = csafValidatorTestNames.filter((name) => name.startsWith("mandatoryTest_6_1_"));
    const recommended = csafValidatorTestNames.filter((name) => name.startsWith("optionalTest_6_2_"));
    expect(mandatory).toHaveLength(43);
    expect(recommended).toHaveLength(20);
    expect(csafValidatorTestNames).toHaveLength(1 + 43 + 20);
  });

  it("finds no error and no recommended-test warning but the accepted ones in every kind of record", async () => {
    const advisories = await Promise.all(RECORDS.map((record) => advisoryOf(record.id)));
    expect(await csafValidatorFindings(advisories)).toEqual([]);
  });
});

describe("GET /api/v1/csaf/{id}", () => {
  it("validates the advisory of every record against the official schema", async () => {
    const advisories = await Promise.all(RECORDS.map((record) => advisoryOf(record.id)));
    expect(csafErrorsOf(advisories)).toEqual([]);
    for (const advisory of advisories) {
      expect(advisory.document.category).toBe("csaf_security_advisory");
      expect(advisory.document.csaf_version).toBe("2.0");
      expect(advisory.document.publisher).toMatchObject({ category: "coordinator", namespace: APP });
      expect(advisory.document.distribution.tlp.label).toBe("WHITE");
      expect(advisory.document.tracking.status).toBe("final");
      expect(advisory.document.tracking.id.startsWith(OSV_ID_PREFIX)).toBe(true);
    }
  });

  it("answers the same document for its file name, OSV id, uuid, CVE id and slug; 404 otherwise", async () => {
    const byFileName = await harness.app.inject({ method: "GET", url: csafPathOf(CORE_SQLI.id) });
    expect(csafFileNameOf(CORE_SQLI.id)).toBe(`x_pressguard-${CORE_SQLI.id}.json`);
    const keys = [`${OSV_ID_PREFIX}${CORE_SQLI.id}`, CORE_SQLI.id, CORE_SQLI.cve];
    for (const key of keys) {
      const response = await harness.app.inject({ method: "GET", url: `/api/v1/csaf/${key}` });
      expect(response.statusCode, key).toBe(200);
      expect(response.json(), key).toEqual(byFileName.json());
    }
    const { rows } = await harness.database.sql.query<{ slug: string }>(
      "select slug from vulnerabilities where id = $1",
      [CORE_SQLI.id],
    );
    const bySlug = await harness.app.inject({ method: "GET", url: `/api/v1/csaf/${rows[0]!.slug}` });
    expect(bySlug.json()).toEqual(byFileName.json());
    for (const key of [
      "c5af0000-0000-4000-8000-00000000ffff",
      `${OSV_ID_PREFIX}c5af0000-0000-4000-8000-00000000ffff`,
      `x_PRESSGUARD-${CORE_SQLI.id}.json`,
      `${CORE_SQLI.id}.json`,
      "X_PRESSGUARD-nope",
      "CVE-2099-99999",
    ]) {
      const response = await harness.app.inject({ method: "GET", url: `/api/v1/csaf/${key}` });
      expect(response.statusCode, key).toBe(404);
      expect(response.json(), key).toEqual({ status: "error", message: "Vulnerability not found." });
    }
  });

  it("is kept in the response store with an ETag, answered 304 on revalidation", async () => {
    const first = await harness.app.inject({ method: "GET", url: csafPathOf(WEB_DIRECTORY_SQLI.id) });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    expect(first.headers["cache-control"]).toBe("public, max-age=300");
    const again = await harness.app.inject({
      method: "GET",
      url: csafPathOf(WEB_DIRECTORY_SQLI.id),
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it("a fixed plugin: a range, the fixed version as a product, vendor_fix to the product page, CVE, CVSS 3.1", async () => {
    const advisory = await advisoryOf(SMASH_BALLOON_XSS.id);
    const [range] = branchNamed(advisory, "product_version_range");
    expect(range!.path).toEqual(["vendor", "product_name", "product_version_range"]);
    expect(range!.product.product_identification_helper).toEqual({
      purl: "pkg:wordpress/custom-facebook-feed",
    });
    const tree = advisory.product_tree.branches[0]!.branches![0]!.branches!;
    expect(tree.map((branch) => [branch.category, branch.name])).toEqual([
      ["product_version_range", "vers:wordpress/<4.1.1"],
      ["product_version", "4.1.1"],
    ]);
    const [fixed] = branchNamed(advisory, "product_version");
    expect(fixed!.product.product_identification_helper.purl).toBe(
      "pkg:wordpress/custom-facebook-feed@4.1.1",
    );
    const vulnerability = advisory.vulnerabilities[0]!;
    expect(vulnerability.cve).toBe("CVE-2021-25065");
    expect(vulnerability.cwe).toBeUndefined();
    expect(vulnerability.product_status).toEqual({
      known_affected: [range!.product.product_id],
      fixed: [fixed!.product.product_id],
    });
    expect(vulnerability.remediations).toEqual([
      {
        category: "vendor_fix",
        details: "Update Smash Balloon Social Post Feed to 4.1.1 or later.",
        product_ids: [range!.product.product_id],
        url: `${APP}/database/wordpress/plugin/custom-facebook-feed/vulnerabilities/vdp`,
      },
    ]);
    expect(vulnerability.scores).toEqual([
      {
        cvss_v3: {
          version: "3.1",
          vectorString: SMASH_BALLOON_XSS.cvss_vector,
          baseScore: 5.4,
          baseSeverity: "MEDIUM",
        },
        products: [range!.product.product_id],
      },
    ]);
    expect(vulnerability.acknowledgments).toBeUndefined();
    // Self links to the advisory's canonical URL (test 6.2.11), our page and OSV record; the source's
    // record as an external reference.
    expect(advisory.document.references.map((reference) => [reference.category, reference.url])).toEqual([
      ["self", `${APP}/api/v1/csaf/x_pressguard-${SMASH_BALLOON_XSS.id}.json`],
      [
        "self",
        expect.stringMatching(
          /^https:\/\/db\.example\.test\/database\/wordpress\/plugin\/custom-facebook-feed\/vulnerability\//,
        ),
      ],
      ["self", `${APP}/api/v1/osv/${OSV_ID_PREFIX}${SMASH_BALLOON_XSS.id}`],
      ["external", SMASH_BALLOON_XSS.source_url],
    ]);
    expect(vulnerability.references.map((reference) => reference.url)).toEqual([
      SMASH_BALLOON_XSS.source_url,
      "https://www.cve.org/CVERecord?id=CVE-2021-25065",
      SMASH_BALLOON_XSS.references[0],
    ]);
  });

  it("keeps the source's attribution and licence texts, and MITRE's for a CVE id", async () => {
    const advisory = await advisoryOf(SMASH_BALLOON_XSS.id);
    const legal = advisory.document.notes.find((note) => note.category === "legal_disclaimer")!.text;
    expect(legal).toContain(SMASH_BALLOON_XSS.attribution);
    expect(legal).toContain(SMASH_BALLOON_XSS.source_url);
    expect(legal).toContain(DEFIANT_LICENSE);
    expect(legal).toContain(MITRE_CVE_LICENSE);
    expect(advisory.document.distribution.text).toBe(legal);
    const description = advisory.document.notes.find((note) => note.category === "description")!.text;
    expect(description).toBe(SMASH_BALLOON_XSS.description);
    const noCve = await advisoryOf(VIDEO_GALLERY_ALL_VERSIONS.id);
    const noCveLegal = noCve.document.notes.find((note) => note.category === "legal_disclaimer")!.text;
    expect(noCveLegal).toContain(DEFIANT_LICENSE);
    expect(noCveLegal).not.toContain(MITRE_CVE_LICENSE);
  });

  it("an unfixed record of two plugins: a vendor branch each, none_available, the CWE with its name, the researcher", async () => {
    const advisory = await advisoryOf(MODERN_EVENTS_SSRF.id);
    const ranges = branchNamed(advisory, "product_version_range");
    expect(ranges).toHaveLength(2);
    expect(branchNamed(advisory, "product_version")).toEqual([]);
    const vulnerability = advisory.vulnerabilities[0]!;
    expect(vulnerability.product_status).toEqual({
      known_affected: ranges.map((range) => range.product.product_id),
    });
    expect(vulnerability.remediations.map((remediation) => remediation.category)).toEqual([
      "none_available",
      "none_available",
    ]);
    expect(vulnerability.cwe).toEqual({
      id: "CWE-918",
      name: "Server-Side Request Forgery (SSRF)",
    });
    expect(vulnerability.acknowledgments).toEqual([
      {
        names: ["Friderika Baranyai"],
        urls: [expect.stringMatching(/^https:\/\/db\.example\.test\/database\/researchers\/[0-9a-f-]{36}$/)],
      },
    ]);
  });

  it("a fixed version from the CVE record for a <= range; three researchers; the plugin's author as vendor", async () => {
    const advisory = await advisoryOf(WEB_DIRECTORY_SQLI.id);
    expect(advisory.product_tree.branches.map((branch) => [branch.category, branch.name])).toEqual([
      ["vendor", "salephpscripts.com"],
    ]);
    const [range] = branchNamed(advisory, "product_version_range");
    expect(range!.path).toEqual(["vendor", "product_name", "product_version_range"]);
    const [fixed] = branchNamed(advisory, "product_version");
    expect(fixed!.product.name).toBe("Web Directory Free 1.7.0");
    expect(advisory.vulnerabilities[0]!.product_status.fixed).toEqual([fixed!.product.product_id]);
    expect(advisory.vulnerabilities[0]!.cwe).toEqual({
      id: "CWE-89",
      name: "Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
    });
    expect(advisory.vulnerabilities[0]!.acknowledgments?.map((item) => item.names[0])).toEqual([
      "Simone Onofri",
      "Kim Cerra",
      "Andrea De Dominicis",
    ]);
  });

  it("every version affected: vers:wordpress/*, no fix", async () => {
    const advisory = await advisoryOf(VIDEO_GALLERY_ALL_VERSIONS.id);
    const tree = advisory.product_tree.branches[0]!.branches![0]!.branches!;
    expect(tree.map((branch) => branch.name)).toEqual(["vers:wordpress/*"]);
    expect(advisory.vulnerabilities[0]!.cve).toBeUndefined();
    expect(advisory.vulnerabilities[0]!.remediations[0]!.category).toBe("none_available");
  });

  it("core: the WordPress vendor, roots/wordpress purl and CPE on the range and on the fixed version", async () => {
    const advisory = await advisoryOf(CORE_SQLI.id);
    expect(advisory.product_tree.branches[0]!.name).toBe("WordPress");
    const [range] = branchNamed(advisory, "product_version_range");
    expect(range!.product.product_identification_helper).toEqual({
      purl: "pkg:composer/roots/wordpress",
      cpe: "cpe:2.3:a:wordpress:wordpress:*:*:*:*:*:*:*:*",
    });
    expect(range!.path).toEqual(["vendor", "product_name", "product_version_range"]);
    const [fixed] = branchNamed(advisory, "product_version");
    expect(fixed!.product.product_identification_helper).toEqual({
      purl: "pkg:composer/roots/wordpress@5.8.3",
      cpe: "cpe:2.3:a:wordpress:wordpress:5.8.3:*:*:*:*:*:*:*",
    });
    const tree = advisory.product_tree.branches[0]!.branches![0]!.branches!;
    expect(tree[0]!.name).toBe("vers:composer/>=5.8|<5.8.3");
  });

  it("several ranges, one with an exclusive lower bound and one exact version", async () => {
    const advisory = await advisoryOf(CORE_TWO_RANGES.id);
    const tree = advisory.product_tree.branches[0]!.branches![0]!.branches!;
    expect(tree.map((branch) => [branch.category, branch.name])).toEqual([
      ["product_version_range", "vers:composer/>5.8|<5.8.3"],
      ["product_version_range", "vers:composer/5.9"],
      ["product_version", "5.8.3"],
    ]);
    expect(tree[0]!.product!.name).toBe("WordPress Core > 5.8, < 5.8.3");
    const vulnerability = advisory.vulnerabilities[0]!;
    expect(vulnerability.product_status.known_affected).toHaveLength(2);
    expect(vulnerability.product_status.fixed).toEqual([tree[2]!.product!.product_id]);
    // The fixed version fixes the first range; the second has no known fix.
    expect(vulnerability.remediations.map((item) => [item.category, item.product_ids])).toEqual([
      ["vendor_fix", [tree[0]!.product!.product_id]],
      ["none_available", [tree[1]!.product!.product_id]],
    ]);
  });

  it("a theme without a CVSS vector: pkg:wordpress/theme purl, no scores, no aggregate severity", async () => {
    const advisory = await advisoryOf(THEME_NO_CVSS.id);
    const [range] = branchNamed(advisory, "product_version_range");
    expect(range!.product.product_identification_helper.purl).toBe("pkg:wordpress/theme/csaf-test-theme");
    expect(advisory.product_tree.branches[0]!.name).toBe("Unknown vendor");
    expect(advisory.vulnerabilities[0]!.scores).toBeUndefined();
    expect(advisory.document).not.toHaveProperty("aggregate_severity");
  });

  it("CVSS 3.0: cvss_v3 version 3.0, the base score computed from the vector", async () => {
    const advisory = await advisoryOf(CVSS_30.id);
    expect(advisory.vulnerabilities[0]!.scores?.[0]?.cvss_v3).toEqual({
      version: "3.0",
      vectorString: CVSS_30.cvss_vector,
      baseScore: 9.8,
      baseSeverity: "CRITICAL",
    });
  });

  it("a fix inferred from the product's current version: that version as fixed, an honest vendor_fix", async () => {
    const advisory = await advisoryOf(INFERRED.id);
    const [range] = branchNamed(advisory, "product_version_range");
    const [current] = branchNamed(advisory, "product_version");
    expect(current!.product.name).toBe("CSAF Inferred 3.0");
    expect(current!.product.product_identification_helper.purl).toBe(
      "pkg:wordpress/csaf-inferred-plugin@3.0",
    );
    const vulnerability = advisory.vulnerabilities[0]!;
    expect(vulnerability.product_status).toEqual({
      known_affected: [range!.product.product_id],
      fixed: [current!.product.product_id],
    });
    expect(vulnerability.remediations[0]).toMatchObject({
      category: "vendor_fix",
      product_ids: [range!.product.product_id],
    });
    expect(vulnerability.remediations[0]!.details).toContain("inferred");
  });

  it("dates the document by the record's OSV dates, with a revision for a later change", async () => {
    const advisory = await advisoryOf(SMASH_BALLOON_XSS.id);
    const osv = (
      await harness.app.inject({ method: "GET", url: `/api/v1/osv/${OSV_ID_PREFIX}${SMASH_BALLOON_XSS.id}` })
    ).json() as { published: string; modified: string };
    const { tracking } = advisory.document;
    expect(tracking.initial_release_date).toBe(osv.published);
    expect(tracking.current_release_date).toBe(osv.modified);
    expect(tracking.revision_history.at(-1)).toMatchObject({
      number: tracking.version,
      date: osv.modified,
    });
    await harness.database.sql.query(
      "update vulnerabilities set updated_at = updated_at + interval '1 day' where id = $1",
      [SMASH_BALLOON_XSS.id],
    );
    const changed = await harness.app.inject({
      method: "GET",
      url: `${csafPathOf(SMASH_BALLOON_XSS.id)}?changed`,
    });
    const changedTracking = (changed.json() as Advisory).document.tracking;
    expect(changedTracking.version).toBe("2");
    expect(changedTracking.revision_history.map((item) => item.number)).toEqual(["1", "2"]);
    expect(changedTracking.current_release_date > changedTracking.initial_release_date).toBe(true);
    expect(csafErrorsOf([changed.json()])).toEqual([]);
  });
});

describe("an upstream slug with spaces (issue 38)", () => {
  const IDENTIFIER_SLUG = "litho-multipurpose-elementor-wordpress-theme";

  it("is named by its normalised slug in the advisory, the OSV record and the product API", async () => {
    const advisory = await advisoryOf(LITHO.id);
    const [range] = branchNamed(advisory, "product_version_range");
    expect(range!.product.product_identification_helper).toEqual({
      purl: `pkg:wordpress/theme/${IDENTIFIER_SLUG}`,
    });
    expect(csafErrorsOf([advisory])).toEqual([]);
    const osv = (
      await harness.app.inject({ method: "GET", url: `/api/v1/osv/${OSV_ID_PREFIX}${LITHO.id}` })
    ).json() as { affected: { package: { ecosystem: string; name: string; purl: string } }[] };
    expect(osv.affected[0]!.package).toEqual({
      ecosystem: "Packagist:https://wpackagist.org",
      name: `wpackagist-theme/${IDENTIFIER_SLUG}`,
      purl: `pkg:composer/wpackagist-theme/${IDENTIFIER_SLUG}?repository_url=https%3A%2F%2Fwpackagist.org`,
    });
  });

  it("keeps the product findable under its upstream slug and its normalised one", async () => {
    const upstream = await harness.app.inject({
      method: "GET",
      url: `/api/v1/products/wordpress/theme/${encodeURIComponent(LITHO_SLUG)}`,
    });
    expect(upstream.statusCode, upstream.body).toBe(200);
    const normalised = await harness.app.inject({
      method: "GET",
      url: `/api/v1/products/wordpress/theme/${IDENTIFIER_SLUG}`,
    });
    expect(normalised.statusCode, normalised.body).toBe(200);
    expect(normalised.json()).toEqual(upstream.json());
    expect(upstream.json()).toMatchObject({
      slug: LITHO_SLUG,
      identifiers: { composer: { name: `wpackagist-theme/${IDENTIFIER_SLUG}` } },
    });
    const missing = await harness.app.inject({
      method: "GET",
      url: "/api/v1/products/wordpress/theme/litho-multipurpose",
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe("CWE names", () => {
  it("come from MITRE's list, for weaknesses and categories; unknown ids have none", () => {
    expect(cweNameOf("CWE-79")).toBe(
      "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')",
    );
    expect(cweNameOf("CWE-264")).toBe("Permissions, Privileges, and Access Controls");
    expect(cweNameOf("CWE-9999999")).toBeNull();
  });
});
