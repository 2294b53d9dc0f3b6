import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { KEV_DEFAULT_URL, KevFormatError, parseKevCatalog, parseKevCatalogText } from "./kev.ts";

// An excerpt of the real catalog (github.com/cisagov/kev-data, catalogVersion 2025.08.25): its
// three WordPress plugin entries, a ransomware-linked one and one with two CWEs; `count` is the
// excerpt's.
const FIXTURE = readFileSync(join(import.meta.dirname, "fixtures", "kev-catalog.json"), "utf8");

function catalogWith(vulnerabilities: unknown[], extra: Record<string, unknown> = {}) {
  const catalog = JSON.parse(FIXTURE);
  return JSON.stringify({ ...catalog, ...extra, vulnerabilities });
}

function fixtureEntry(cve: string): Record<string, unknown> {
  const entry = JSON.parse(FIXTURE).vulnerabilities.find((item: { cveID: string }) => item.cveID === cve);
  if (!entry) throw new Error(`${cve} is not in the fixture`);
  return entry;
}

describe("parseKevCatalog", () => {
  it("points at CISA's JSON feed by default", () => {
    expect(KEV_DEFAULT_URL).toBe(
      "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json",
    );
  });

  it("maps each CVE to its dates and ransomware use, with the catalog's version and release", async () => {
    const catalog = await parseKevCatalog(FIXTURE);

    expect(catalog.catalogVersion).toBe("2025.08.25");
    expect(catalog.dateReleased.toISOString()).toBe("2025-08-25T17:04:19.979Z");
    expect(catalog.declaredCount).toBe(5);
    expect(catalog.skipped).toEqual({ total: 0, byReason: {}, examples: [] });
    expect([...catalog.entries.keys()]).toEqual([
      "CVE-2025-48384",
      "CVE-2025-49704",
      "CVE-2020-25213",
      "CVE-2020-11738",
      "CVE-2019-9978",
    ]);
    expect(catalog.entries.get("CVE-2020-25213")).toEqual({
      date_added: "2021-11-03",
      due_date: "2022-05-03",
      ransomware: "Unknown",
    });
    expect(catalog.entries.get("CVE-2025-49704")).toEqual({
      date_added: "2025-07-22",
      due_date: "2025-07-23",
      ransomware: "Known",
    });
  });

  it("reads the same catalog from a stream cut inside multi-byte characters", async () => {
    const bytes = Buffer.from(FIXTURE);
    const chunks: Buffer[] = [];
    for (let offset = 0; offset < bytes.length; offset += 7) chunks.push(bytes.subarray(offset, offset + 7));

    const fromStream = await parseKevCatalog(Readable.from(chunks));

    expect(fromStream).toEqual(await parseKevCatalog(FIXTURE));
  });

  it("reads bytes with a byte order mark", async () => {
    const catalog = await parseKevCatalog(new Uint8Array(Buffer.from(`\uFEFF${FIXTURE}`)));

    expect(catalog.entries.size).toBe(5);
  });

  it("ignores fields it does not use, such as the schema's newer forensicTriage", () => {
    const entry = { ...fixtureEntry("CVE-2019-9978"), forensicTriage: "No", cwes: [] };

    const catalog = parseKevCatalogText(catalogWith([entry]));

    expect(catalog.entries.get("CVE-2019-9978")?.ransomware).toBe("Unknown");
    expect(catalog.skipped.total).toBe(0);
  });

  it("normalises a CVE id's case and spacing and the ransomware value's case", () => {
    const entry = {
      ...fixtureEntry("CVE-2019-9978"),
      cveID: " cve-2019-9978 ",
      knownRansomwareCampaignUse: "known",
    };

    const catalog = parseKevCatalogText(catalogWith([entry]));

    expect(catalog.entries.get("CVE-2019-9978")?.ransomware).toBe("Known");
  });

  it("reads an entry without knownRansomwareCampaignUse (optional in the schema) as Unknown", () => {
    const { knownRansomwareCampaignUse: _omitted, ...entry } = fixtureEntry("CVE-2025-49704");

    const catalog = parseKevCatalogText(catalogWith([entry]));

    expect(catalog.entries.get("CVE-2025-49704")?.ransomware).toBe("Unknown");
  });

  it("skips invalid entries, counts them by reason and keeps the valid ones", () => {
    const good = fixtureEntry("CVE-2020-25213");
    const { dueDate: _missing, ...withoutDueDate } = fixtureEntry("CVE-2020-11738");
    const catalog = parseKevCatalogText(
      catalogWith([
        good,
        { ...good, cveID: "CVE-21-0001" },
        { ...good, cveID: "GHSA-xxxx-yyyy-zzzz" },
        withoutDueDate,
        { ...fixtureEntry("CVE-2019-9978"), dateAdded: "2021-02-30" },
        { ...fixtureEntry("CVE-2025-49704"), knownRansomwareCampaignUse: "Maybe" },
        { ...good, dateAdded: "2099-01-01" },
        null,
        "CVE-2024-0001",
        fixtureEntry("CVE-2025-48384"),
      ]),
    );

    expect([...catalog.entries.keys()]).toEqual(["CVE-2020-25213", "CVE-2025-48384"]);
    // The first of a repeated CVE id stands.
    expect(catalog.entries.get("CVE-2020-25213")?.date_added).toBe("2021-11-03");
    expect(catalog.skipped.total).toBe(8);
    expect(catalog.skipped.byReason).toEqual({
      "cveID: not a CVE id": 2,
      "dueDate: missing": 1,
      "dateAdded: not a YYYY-MM-DD date": 1,
      "knownRansomwareCampaignUse: neither Known nor Unknown": 1,
      "duplicate CVE id": 1,
      "entry: not an object": 2,
    });
    expect(catalog.skipped.examples.slice(0, 4)).toEqual([
      { index: 1, cve: "CVE-21-0001", reason: "cveID: not a CVE id" },
      { index: 2, cve: "GHSA-XXXX-YYYY-ZZZZ", reason: "cveID: not a CVE id" },
      { index: 3, cve: "CVE-2020-11738", reason: "dueDate: missing" },
      { index: 4, cve: "CVE-2019-9978", reason: "dateAdded: not a YYYY-MM-DD date" },
    ]);
    expect(catalog.skipped.examples.at(-1)).toEqual({ index: 8, cve: null, reason: "entry: not an object" });
  });

  it("refuses a truncated download with a clear error", async () => {
    const truncated = FIXTURE.slice(0, Math.floor(FIXTURE.length / 2));

    await expect(parseKevCatalog(truncated)).rejects.toThrow(KevFormatError);
    await expect(parseKevCatalog(Readable.from([Buffer.from(truncated)]))).rejects.toThrow(
      /not valid JSON \(truncated or not the catalog\)/,
    );
  });

  it.each([
    [
      "an object without vulnerabilities",
      JSON.stringify({ catalogVersion: "2025.08.25" }),
      /vulnerabilities/,
    ],
    [
      "vulnerabilities that are not an array",
      JSON.stringify({ ...JSON.parse(FIXTURE), vulnerabilities: {} }),
      /vulnerabilities/,
    ],
    [
      "a document without its version",
      JSON.stringify({ dateReleased: "2025-08-25T17:04:19Z", vulnerabilities: [] }),
      /catalogVersion/,
    ],
    [
      "a release date that is not a date",
      catalogWith([], { dateReleased: "yesterday" }),
      /dateReleased: not a date-time/,
    ],
    ["a JSON array", "[]", /not a KEV catalog/],
    ["an HTML error page", "<!DOCTYPE html><html><body>Access Denied</body></html>", /not valid JSON/],
    ["an empty body", "", /not valid JSON/],
  ])("refuses %s", (_case, text, message) => {
    expect(() => parseKevCatalogText(text)).toThrow(KevFormatError);
    expect(() => parseKevCatalogText(text)).toThrow(message);
  });

  it("refuses a stream larger than any real catalog without reading all of it", async () => {
    let produced = 0;
    async function* endless() {
      const megabyte = Buffer.alloc(1024 * 1024, 0x20);
      for (;;) {
        produced += 1;
        yield megabyte;
      }
    }

    await expect(parseKevCatalog(endless())).rejects.toThrow(/larger than 64 MB/);
    expect(produced).toBe(65);
  });
});
