import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, statSync, type WriteStream } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

/**
 * The upstream documents of `npm run bench:data-sync` (issue 34), generated in each source's own
 * format, and the loopback stand-in that serves them as the real hosts do: a streamed body with an
 * ETag and a Last-Modified date, 304 to a conditional request that matches.
 *
 * - Wordfence Intelligence v3: one JSON object keyed by record id (decision 035; the record shape of
 *   apps/server/src/modules/data-sources/fixtures/wordfence-v3-production.json).
 * - CISA KEV: the catalog JSON (fixtures/kev-catalog.json).
 * - FIRST EPSS: the gzipped daily CSV with its `#model_version:…,score_date:…` line (fixtures/epss-*.csv).
 */

/** A small seeded generator (mulberry32): the same documents on every run. */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (probability: number) => next() < probability,
    uuid: () => {
      const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
      hex[12] = "4";
      hex[16] = "89ab"[Math.floor(next() * 4)]!;
      const text = hex.join("");
      return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
    },
  };
}
type Random = ReturnType<typeof randomOf>;

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once("drain", resolve));
}

async function close(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.end(resolve);
  });
}

// ---------------------------------------------------------------------------------------------------
// Wordfence Intelligence v3

/** The bundled file's record (data/wordpress-vulns/README.md): what the feed's records were mapped to. */
interface SeedRange {
  prefix: string;
  version: string;
  introduced?: string;
  introduced_inclusive?: boolean;
  last_affected?: string;
  fixed?: string;
}
interface SeedRecord {
  id: string;
  cve: string | null;
  title: string;
  description: string;
  vuln_type: string | null;
  software: {
    software_type: "plugin" | "theme" | "core";
    slug: string;
    software_name: string | null;
    affected: SeedRange[];
    fixed_in: string | null;
  }[];
  cvss_score: number | null;
  cvss_vector: string | null;
  cvss_rating: string | null;
  cwe: string | null;
  published_at: string | null;
  updated_at: string | null;
  researchers: string[] | null;
  references: string[];
}

interface FeedRange {
  from_version: string;
  from_inclusive: boolean;
  to_version: string;
  to_inclusive: boolean;
}
interface FeedSoftware {
  type: "plugin" | "theme" | "core";
  name: string;
  slug: string;
  affected_versions: Record<string, FeedRange>;
  patched: boolean;
  patched_versions: string[];
  remediation: string;
}

const DEFIANT = {
  notice: "Copyright 2012-2026 Defiant Inc.",
  license:
    "Defiant hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute this software vulnerability information. Any copy of the software vulnerability information you make for such purposes is authorized provided that you include a hyperlink to this vulnerability record and reproduce Defiant's copyright designation and this license in any such copy.",
  license_url: "https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/",
};
const MITRE = {
  notice: "Copyright 1999-2026 The MITRE Corporation",
  license:
    "CVE Usage: MITRE hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute Common Vulnerabilities and Exposures (CVE®). Any copy you make for such purposes is authorized provided that you reproduce MITRE's copyright designation and this license in any such copy.",
  license_url: "https://www.cve.org/Legal/TermsOfUse",
};

/** The CWEs the feed names most, with MITRE's descriptions (the feed sends `cwe.description` too). */
const CWES: { id: number; name: string; description: string; words: RegExp; type: string }[] = [
  {
    id: 79,
    name: "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')",
    description:
      "The product does not neutralize or incorrectly neutralizes user-controllable input before it is placed in output that is used as a web page that is served to other users.",
    words: /cross-site scripting|xss/i,
    type: "Authenticated (Contributor+) Stored Cross-Site Scripting",
  },
  {
    id: 352,
    name: "Cross-Site Request Forgery (CSRF)",
    description:
      "The web application does not, or can not, sufficiently verify whether a well-formed, valid, consistent request was intentionally provided by the user who submitted the request.",
    words: /request forgery|csrf/i,
    type: "Cross-Site Request Forgery",
  },
  {
    id: 862,
    name: "Missing Authorization",
    description:
      "The product does not perform an authorization check when an actor attempts to access a resource or perform an action.",
    words: /missing authori[sz]ation|unauthori[sz]ed/i,
    type: "Missing Authorization",
  },
  {
    id: 89,
    name: "Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
    description:
      "The product constructs all or part of an SQL command using externally-influenced input from an upstream component, but it does not neutralize or incorrectly neutralizes special elements that could modify the intended SQL command when it is sent to a downstream component.",
    words: /sql injection/i,
    type: "Unauthenticated SQL Injection",
  },
  {
    id: 22,
    name: "Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')",
    description:
      "The product uses external input to construct a pathname that is intended to identify a file or directory that is located underneath a restricted parent directory, but the product does not properly neutralize special elements within the pathname that can cause the pathname to resolve to a location that is outside of the restricted directory.",
    words: /traversal|file (read|deletion)/i,
    type: "Authenticated (Subscriber+) Directory Traversal",
  },
  {
    id: 434,
    name: "Unrestricted Upload of File with Dangerous Type",
    description:
      "The product allows the upload or transfer of dangerous file types that are automatically processed within its environment.",
    words: /file upload/i,
    type: "Unauthenticated Arbitrary File Upload",
  },
  {
    id: 502,
    name: "Deserialization of Untrusted Data",
    description:
      "The product deserializes untrusted data without sufficiently ensuring that the resulting data will be valid.",
    words: /object injection|deseriali/i,
    type: "Unauthenticated PHP Object Injection",
  },
  {
    id: 918,
    name: "Server-Side Request Forgery (SSRF)",
    description:
      "The web server receives a URL or similar request from an upstream component and retrieves the contents of this URL, but it does not sufficiently ensure that the request is being sent to the expected destination.",
    words: /server-side request forgery|ssrf/i,
    type: "Authenticated (Subscriber+) Server-Side Request Forgery",
  },
  {
    id: 200,
    name: "Exposure of Sensitive Information to an Unauthorized Actor",
    description:
      "The product exposes sensitive information to an actor that is not explicitly authorized to have access to that information.",
    words: /information exposure|disclosure|sensitive/i,
    type: "Unauthenticated Sensitive Information Exposure",
  },
  {
    id: 601,
    name: "URL Redirection to Untrusted Site ('Open Redirect')",
    description:
      "A web application accepts a user-controlled input that specifies a link to an external site, and uses that link in a Redirect.",
    words: /open redirect/i,
    type: "Unauthenticated Open Redirect",
  },
  {
    id: 94,
    name: "Improper Control of Generation of Code ('Code Injection')",
    description:
      "The product constructs all or part of a code segment using externally-influenced input from an upstream component, but it does not neutralize or incorrectly neutralizes special elements that could modify the syntax or behavior of the intended code segment.",
    words: /code (injection|execution)|rce/i,
    type: "Unauthenticated Remote Code Execution",
  },
];

const RESEARCHERS = [
  "Stefan Marjanov",
  "István Márton",
  "Francesco Carlucci",
  "Lucio Sá",
  "Rafie Muhammad",
  "Dmitrii Ignatyev",
  "Tieu Pham Trong Nhan",
  "Muhammad Daffa",
  "wesley (wcraft)",
  "Marco Wotschka",
  "Alex Thomas",
  "Chloe Chamberland",
];
const WORDS = [
  "smart",
  "easy",
  "simple",
  "ultimate",
  "advanced",
  "quick",
  "social",
  "custom",
  "responsive",
  "premium",
  "gallery",
  "slider",
  "forms",
  "booking",
  "popup",
  "seo",
  "backup",
  "shop",
  "events",
  "members",
  "analytics",
  "table",
  "menu",
  "chat",
];

/** `YYYY-MM-DD HH:MM:SS`, the feed's form (UTC). */
const feedDate = (time: number) => new Date(time).toISOString().replace("T", " ").slice(0, 19);
const FIRST_DAY = Date.parse("2012-01-01T00:00:00Z");
const FEED_DAY = Date.parse("2026-10-18T00:00:00Z");

const titleCase = (slug: string) =>
  slug
    .split("-")
    .map((word) => (word ? word[0]!.toUpperCase() + word.slice(1) : word))
    .join(" ");

/** The bundled file's range back in the feed's `affected_versions` form (the inverse of `rangeOf`). */
function feedRangeOf(range: SeedRange): [string, FeedRange] {
  if (range.prefix === "") {
    return [
      range.version,
      { from_version: range.version, from_inclusive: true, to_version: range.version, to_inclusive: true },
    ];
  }
  const from = range.introduced ?? "*";
  const fromInclusive = range.introduced_inclusive ?? true;
  return [
    `${from} - ${range.version}`,
    {
      from_version: from,
      from_inclusive: fromInclusive,
      to_version: range.version,
      to_inclusive: range.prefix === "<=",
    },
  ];
}

/** One software entry of a record: its ranges keyed `"from - to"`, its patched versions, remediation. */
function softwareOf(
  type: FeedSoftware["type"],
  slug: string,
  name: string,
  ranges: [string, FeedRange][],
  patchedVersions: string[],
): FeedSoftware {
  const patched = patchedVersions.length > 0;
  return {
    type,
    name,
    slug,
    affected_versions: Object.fromEntries(ranges),
    patched,
    patched_versions: patchedVersions,
    remediation: patched
      ? `Update to version ${patchedVersions.at(-1)}, or a newer patched version`
      : "No known patch available. Please review the vulnerability's details in depth and employ mitigations based on your organization's risk tolerance. It may be best to uninstall the affected software and find a replacement.",
  };
}

/** A version one step up (`4.0.2` → `4.0.3`), for patched versions. */
function nextVersion(version: string): string {
  const parts = version.split(".");
  const last = Number(parts.at(-1));
  if (!Number.isInteger(last)) return `${version}.1`;
  parts[parts.length - 1] = String(last + 1);
  return parts.join(".");
}

/** An older branch of `version` (`5.2.1` → `4.9.7`), or null when there is none. */
function olderBranch(version: string, random: Random): string | null {
  const major = Number(version.split(".")[0]);
  if (!Number.isInteger(major) || major < 2) return null;
  return `${major - 1}.${random.int(10)}.${1 + random.int(9)}`;
}

function cweOf(title: string, random: Random) {
  return CWES.find((cwe) => cwe.words.test(title)) ?? random.pick(CWES);
}

/** The fields every record has besides its software, as the feed writes them. */
function recordOf(
  random: Random,
  fields: {
    id: string;
    title: string;
    software: FeedSoftware[];
    informational: boolean;
    description: string;
    references: string[];
    cve: string | null;
    cvss: { vector: string; score: number; rating: string } | null;
    researchers: string[];
    published: number;
  },
) {
  const cwe = cweOf(fields.title, random);
  const updated = fields.published + random.int(40) * 86_400_000 + random.int(86_400) * 1000;
  return {
    id: fields.id,
    title: fields.title,
    software: fields.software,
    informational: fields.informational,
    description: fields.description,
    references: fields.references,
    cwe: fields.informational ? null : { id: cwe.id, name: cwe.name, description: cwe.description },
    cvss: fields.cvss,
    cve: fields.cve,
    cve_link: fields.cve ? `https://www.cve.org/CVERecord?id=${fields.cve}` : null,
    researchers: fields.researchers,
    published: feedDate(fields.published),
    updated: feedDate(Math.min(updated, FEED_DAY)),
    copyrights: {
      message: "This record contains material that is subject to copyright",
      defiant: DEFIANT,
      ...(fields.cve && { mitre: MITRE }),
    },
  };
}

const RECORD_URL = "https://www.wordfence.com/threat-intel/vulnerabilities/id/";

/** A bundled record as the feed lists it today: the same id and software, with the fields v3 adds. */
function fromSeed(seed: SeedRecord, random: Random) {
  const published = seed.published_at
    ? Date.parse(seed.published_at)
    : FIRST_DAY + Math.floor(random.next() * (FEED_DAY - FIRST_DAY));
  const allVersions = seed.software.every((item) =>
    item.affected.every((range) => range.prefix === "<=" && range.version === "*"),
  );
  const software = seed.software.map((item) => {
    const ranges = new Map(item.affected.map(feedRangeOf));
    const patched = item.fixed_in ? [item.fixed_in] : [];
    // Some records cover an older branch too (WordPress core always does), fixed in that branch.
    const last = item.affected.at(-1);
    if (last && last.version !== "*" && (item.software_type === "core" || random.chance(0.04))) {
      const older = olderBranch(last.version, random);
      if (older) {
        const from = `${older.split(".")[0]}.0`;
        ranges.set(`${from} - ${older}`, {
          from_version: from,
          from_inclusive: true,
          to_version: older,
          to_inclusive: true,
        });
        patched.unshift(nextVersion(older));
      }
    }
    return softwareOf(
      item.software_type,
      item.slug,
      item.software_name ?? titleCase(item.slug),
      [...ranges],
      patched,
    );
  });
  const references = [...seed.references];
  const main = software[0]!;
  if (main.type !== "core") {
    // The lines of code a record points at, and the fix's changeset (most records list a few).
    const trac = `https://${main.type}s.trac.wordpress.org`;
    const tag = Object.values(main.affected_versions)[0]?.to_version ?? "trunk";
    const files = random.chance(0.9) ? 1 + random.int(4) : 0;
    for (let file = 0; file < files; file++)
      references.push(
        `${trac}/browser/${main.slug}/tags/${tag}/includes/class-${main.slug}-${random.pick(WORDS)}.php#L${10 + random.int(900)}`,
      );
    if (random.chance(0.5))
      references.push(`${trac}/changeset/${2_000_000 + random.int(1_500_000)}/${main.slug}`);
  }
  return recordOf(random, {
    id: seed.id,
    title: seed.title,
    software,
    informational: allVersions,
    description: seed.description,
    references,
    cve: seed.cve,
    cvss:
      seed.cvss_vector && seed.cvss_score !== null
        ? { vector: seed.cvss_vector, score: seed.cvss_score, rating: seed.cvss_rating ?? "Medium" }
        : null,
    researchers: seed.researchers ?? [random.pick(RESEARCHERS)],
    published,
  });
}

const CVSS = [
  { vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N", score: 6.4, rating: "Medium" },
  { vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N", score: 4.3, rating: "Medium" },
  { vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", score: 7.5, rating: "High" },
  { vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", score: 9.8, rating: "Critical" },
  { vector: "CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:C/C:L/I:L/A:N", score: 4.4, rating: "Medium" },
  { vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", score: 6.1, rating: "Medium" },
];

/** A version like the directory's: `3.12.4`, sometimes two parts. */
const versionOf = (random: Random) =>
  random.chance(0.2)
    ? `${1 + random.int(9)}.${random.int(20)}`
    : `${1 + random.int(9)}.${random.int(20)}.${random.int(16)}`;

/**
 * A record the bundled file does not hold: a new vulnerability of a product the seed knows (three in
 * five) or of a product it does not; ranges of every form, sometimes two software or two branches,
 * sometimes informational (a closed plugin, every version), a CVE on most.
 */
function freshRecord(
  random: Random,
  seedProducts: { slug: string; name: string; type: FeedSoftware["type"] }[],
  index: number,
) {
  const known = random.chance(0.6);
  const product = known
    ? random.pick(seedProducts)
    : (() => {
        const words = [random.pick(WORDS), random.pick(WORDS)];
        const slug = `${words.join("-")}-${index}`;
        return {
          slug,
          name: titleCase(words.join("-")),
          type: random.chance(0.9) ? ("plugin" as const) : ("theme" as const),
        };
      })();
  const informational = random.chance(0.02);
  const version = versionOf(random);
  const form = random.next();
  let ranges: [string, FeedRange][];
  let patched: string[] = [];
  let versionText: string;
  if (informational) {
    ranges = [["* - *", { from_version: "*", from_inclusive: true, to_version: "*", to_inclusive: true }]];
    versionText = "(All Versions)";
  } else if (form < 0.72) {
    ranges = [
      [
        `* - ${version}`,
        { from_version: "*", from_inclusive: true, to_version: version, to_inclusive: true },
      ],
    ];
    if (random.chance(0.75)) patched = [nextVersion(version)];
    versionText = `<= ${version}`;
  } else if (form < 0.85) {
    ranges = [
      [
        `* - ${version}`,
        { from_version: "*", from_inclusive: true, to_version: version, to_inclusive: false },
      ],
    ];
    patched = [version];
    versionText = `< ${version}`;
  } else if (form < 0.96) {
    const from = `${version.split(".")[0]}.0`;
    const fromInclusive = random.chance(0.7);
    ranges = [
      [
        `${from} - ${version}`,
        { from_version: from, from_inclusive: fromInclusive, to_version: version, to_inclusive: true },
      ],
    ];
    patched = [nextVersion(version)];
    versionText = `${from} - ${version}`;
  } else {
    ranges = [
      [version, { from_version: version, from_inclusive: true, to_version: version, to_inclusive: true }],
    ];
    patched = [nextVersion(version)];
    versionText = version;
  }
  if (!informational && random.chance(0.05)) {
    const older = olderBranch(version, random);
    if (older) {
      const from = `${older.split(".")[0]}.0`;
      ranges.push([
        `${from} - ${older}`,
        { from_version: from, from_inclusive: true, to_version: older, to_inclusive: true },
      ]);
      patched.unshift(nextVersion(older));
    }
  }
  const software = [softwareOf(product.type, product.slug, product.name, ranges, patched)];
  if (!informational && random.chance(0.03)) {
    // A plugin bundled in a theme (or the other way round): the same flaw in both.
    const other = random.pick(seedProducts);
    if (other.slug !== product.slug) {
      const otherVersion = versionOf(random);
      software.push(
        softwareOf(
          other.type,
          other.slug,
          other.name,
          [
            [
              `* - ${otherVersion}`,
              { from_version: "*", from_inclusive: true, to_version: otherVersion, to_inclusive: true },
            ],
          ],
          random.chance(0.5) ? [nextVersion(otherVersion)] : [],
        ),
      );
    }
  }
  const cwe = random.pick(CWES);
  const type = informational ? "Plugin Closed for Security Review" : cwe.type;
  const title = `${software.map((item) => item.name).join(" and ")} ${versionText} - ${type}`;
  const kind = product.type === "core" ? "WordPress core" : `${product.name} ${product.type}`;
  const description = informational
    ? `The ${kind} was closed on WordPress.org pending a security review. No patched version is available; it may be best to uninstall the ${product.type} and find a replacement.`
    : `The ${kind} for WordPress is vulnerable to ${type.replace(/^(Unauthenticated|Authenticated \([^)]*\)) /, "")} in all versions up to, and including, ${version} due to insufficient input sanitization and output escaping and a missing capability check on the affected function. This makes it possible for attackers to ${cwe.id === 79 ? "inject arbitrary web scripts in pages that will execute whenever a user accesses an injected page" : "perform actions that should be reserved for administrators"}.`;
  const id = random.uuid();
  const cve =
    !informational && random.chance(0.85) ? `CVE-2026-${String(10_000 + index).padStart(5, "0")}` : null;
  return recordOf(random, {
    id,
    title,
    software,
    informational,
    description,
    references: [
      `${RECORD_URL}${id}?source=api-prod`,
      ...(product.type === "plugin"
        ? [`https://plugins.trac.wordpress.org/browser/${product.slug}/tags/${version}/`]
        : []),
    ],
    cve,
    cvss: informational ? null : random.pick(CVSS),
    researchers: Array.from({ length: 1 + random.int(2) }, () => random.pick(RESEARCHERS)),
    published: Date.parse("2025-01-01T00:00:00Z") + random.int(655) * 86_400_000,
  });
}

async function* seedRecords(file: string): AsyncGenerator<SeedRecord> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) yield JSON.parse(line) as SeedRecord;
}

export interface WordfenceDocumentFigures {
  records: number;
  /** Records of the bundled file (same id; the feed's content differs, so a first sync changes them). */
  fromSeed: number;
  /** Records the bundled file does not hold. */
  fresh: number;
  bytes: number;
  withCve: number;
  informational: number;
  multipleSoftware: number;
  multipleRanges: number;
}

/**
 * Writes a v3 document of `total` records to `path`: every record of the bundled file (`seedFile`),
 * as the feed lists it now, then new records up to `total` (the production feed held 42,504 on
 * 2026-10-18, of which the bundled 37,205). Compact JSON, one object keyed by record id.
 */
export async function writeWordfenceDocument(
  path: string,
  seedFile: string,
  total: number,
): Promise<WordfenceDocumentFigures> {
  const random = randomOf(34);
  const out = createWriteStream(path);
  const figures: WordfenceDocumentFigures = {
    records: 0,
    fromSeed: 0,
    fresh: 0,
    bytes: 0,
    withCve: 0,
    informational: 0,
    multipleSoftware: 0,
    multipleRanges: 0,
  };
  const products = new Map<string, { slug: string; name: string; type: FeedSoftware["type"] }>();
  let first = true;
  const add = async (record: ReturnType<typeof recordOf>) => {
    figures.records++;
    if (record.cve) figures.withCve++;
    if (record.informational) figures.informational++;
    if (record.software.length > 1) figures.multipleSoftware++;
    if (record.software.some((item) => Object.keys(item.affected_versions).length > 1))
      figures.multipleRanges++;
    await write(out, `${first ? "{" : ","}${JSON.stringify(record.id)}:${JSON.stringify(record)}`);
    first = false;
  };
  for await (const seed of seedRecords(seedFile)) {
    if (figures.records >= total) break;
    for (const item of seed.software)
      products.set(`${item.software_type}/${item.slug}`, {
        slug: item.slug,
        name: item.software_name ?? titleCase(item.slug),
        type: item.software_type,
      });
    await add(fromSeed(seed, random));
    figures.fromSeed++;
  }
  const known = [...products.values()];
  while (figures.records < total) {
    await add(freshRecord(random, known, figures.fresh));
    figures.fresh++;
  }
  await write(out, first ? "{}" : "}");
  await close(out);
  figures.bytes = statSync(path).size;
  return figures;
}

// ---------------------------------------------------------------------------------------------------
// CISA KEV and FIRST EPSS

const cveNumber = (cve: string) => {
  const [, year = "0", number = "0"] = cve.split("-");
  return Number(year) * 1e8 + Number(number);
};

/** CVE ids no record holds (filler, as most of KEV and EPSS are about other software). */
function otherCves(random: Random, count: number, taken: Set<string>): string[] {
  const made: string[] = [];
  while (made.length < count) {
    const cve = `CVE-${1999 + random.int(27)}-${String(random.int(60_000)).padStart(4, "0")}`;
    if (taken.has(cve)) continue;
    taken.add(cve);
    made.push(cve);
  }
  return made;
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Writes a KEV catalog of `total` entries to `path`: `matching` of them CVEs that records hold (picked
 * evenly from `recordCves`), the rest CVEs of other software, in the catalog's own shape.
 */
export async function writeKevCatalog(
  path: string,
  recordCves: readonly string[],
  { total, matching }: { total: number; matching: number },
): Promise<{ entries: number; matching: number; bytes: number }> {
  const random = randomOf(2021);
  const chosen = Array.from(
    { length: Math.min(matching, recordCves.length) },
    (_, index) =>
      recordCves[Math.floor((index * recordCves.length) / Math.min(matching, recordCves.length))]!,
  );
  const taken = new Set(recordCves);
  const cves = [...chosen, ...otherCves(random, total - chosen.length, taken)];
  const start = Date.parse("2021-11-03T00:00:00Z");
  const vulnerabilities = cves.map((cve, index) => {
    const added = start + random.int(1_850) * 86_400_000;
    const wordpress = index < chosen.length;
    return {
      cveID: cve,
      vendorProject: wordpress
        ? "WordPress"
        : random.pick(["Microsoft", "Apple", "Cisco", "Ivanti", "Fortinet", "Oracle"]),
      product: wordpress
        ? "Plugin"
        : random.pick(["Windows", "iOS", "IOS XE", "Connect Secure", "FortiOS", "WebLogic"]),
      vulnerabilityName: wordpress
        ? "WordPress Plugin Remote Code Execution Vulnerability"
        : "Improper Input Validation Vulnerability",
      dateAdded: isoDay(added),
      shortDescription:
        "The product contains a vulnerability that allows a remote attacker to execute code or read files on an affected system.",
      requiredAction:
        "Apply mitigations per vendor instructions, follow applicable BOD 22-01 guidance for cloud services, or discontinue use of the product if mitigations are unavailable.",
      dueDate: isoDay(added + 21 * 86_400_000),
      knownRansomwareCampaignUse: random.chance(0.2) ? "Known" : "Unknown",
      notes: `https://nvd.nist.gov/vuln/detail/${cve}`,
      cwes: [`CWE-${random.pick(CWES).id}`],
    };
  });
  const out = createWriteStream(path);
  await write(
    out,
    JSON.stringify(
      {
        title: "CISA Catalog of Known Exploited Vulnerabilities",
        catalogVersion: "2026.12.01",
        dateReleased: "2026-12-01T17:00:00.000Z",
        count: vulnerabilities.length,
        vulnerabilities,
      },
      null,
      2,
    ),
  );
  await close(out);
  return { entries: vulnerabilities.length, matching: chosen.length, bytes: statSync(path).size };
}

/**
 * Writes a gzipped EPSS scores file of `total` rows to `path`: a score for every CVE of
 * `recordCves`, then other CVEs up to `total`, ordered by CVE as FIRST's file is, with the
 * percentile of each score among all of them.
 */
export async function writeEpssScores(
  path: string,
  recordCves: readonly string[],
  { total, date }: { total: number; date: string },
): Promise<{ rows: number; matching: number; bytes: number }> {
  const random = randomOf(2025);
  const taken = new Set(recordCves);
  const cves = [...recordCves, ...otherCves(random, Math.max(0, total - recordCves.length), taken)];
  cves.sort((a, b) => cveNumber(a) - cveNumber(b));
  // Most scores are tiny, a few near 1 (FIRST's distribution has that long tail).
  const scores = cves.map(() => Math.round((0.00001 + 0.97 * random.next() ** 8) * 1e5) / 1e5);
  const sorted = Float64Array.from(scores).sort();
  const percentileOf = (score: number) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]! <= score) low = middle + 1;
      else high = middle;
    }
    return low / sorted.length;
  };
  const gzip = createGzip();
  const out = createWriteStream(path);
  const written = pipeline(gzip, out);
  const put = async (text: string) => {
    if (!gzip.write(text)) await new Promise<void>((resolve) => gzip.once("drain", resolve));
  };
  await put(`#model_version:v2025.03.14,score_date:${date}T00:00:00Z\ncve,epss,percentile\n`);
  let chunk = "";
  for (const [index, cve] of cves.entries()) {
    const score = scores[index]!;
    chunk += `${cve},${score.toFixed(5)},${percentileOf(score).toFixed(5)}\n`;
    if (chunk.length > 64 * 1024) {
      await put(chunk);
      chunk = "";
    }
  }
  await put(chunk);
  gzip.end();
  await written;
  return { rows: cves.length, matching: recordCves.length, bytes: statSync(path).size };
}

// ---------------------------------------------------------------------------------------------------
// The stand-in upstream

export interface StandInFile {
  file: string;
  contentType: string;
  /** When set, a request without `Authorization: Bearer <this>` gets 401 (the Wordfence feed's key). */
  bearer?: string;
}

export interface StandInRequest {
  path: string;
  status: number;
  conditional: boolean;
  /** Body bytes sent. */
  bytes: number;
  at: number;
}

/** Whether a conditional request matches the file as it is now (RFC 9110 §13.1: If-None-Match first). */
function notModified(request: IncomingMessage, etag: string, modified: Date): boolean {
  const ifNoneMatch = request.headers["if-none-match"];
  if (ifNoneMatch)
    return ifNoneMatch.split(",").some((tag) => ["*", etag].includes(tag.trim().replace(/^W\//, "")));
  const since = Date.parse(request.headers["if-modified-since"] ?? "");
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since;
}

/**
 * A loopback HTTP server answering each path with its file, streamed, with an ETag (size and
 * modification time, as nginx makes it) and Last-Modified; a conditional request that matches gets 304
 * and no body. Every request is logged (status, conditional or not, body bytes).
 */
export async function startStandIn(files: Record<string, StandInFile>) {
  const requests: StandInRequest[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    const entry = files[path];
    const conditional = Boolean(request.headers["if-none-match"] || request.headers["if-modified-since"]);
    const logged: StandInRequest = { path, status: 0, conditional, bytes: 0, at: Date.now() };
    requests.push(logged);
    const answer = (status: number, headers: Record<string, string> = {}) => {
      logged.status = status;
      response.writeHead(status, headers);
      response.end();
    };
    if (!entry || !existsSync(entry.file)) return answer(404);
    if (entry.bearer && request.headers.authorization !== `Bearer ${entry.bearer}`) return answer(401);
    const stat = statSync(entry.file);
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const validators = { etag, "last-modified": stat.mtime.toUTCString() };
    if (notModified(request, etag, stat.mtime)) return answer(304, validators);
    logged.status = 200;
    response.writeHead(200, {
      ...validators,
      "content-type": entry.contentType,
      "content-length": String(stat.size),
    });
    const body = createReadStream(entry.file);
    body.on("data", (chunk) => {
      logged.bytes += chunk.length;
    });
    pipeline(body, response).catch(() => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A short fingerprint of a file's bytes, to tell the runs' documents apart in the results. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex").slice(0, 16);
}
