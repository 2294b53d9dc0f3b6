import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  FeedDocumentError,
  type FeedEntry,
  feedDate,
  mapWordfenceRecord,
  parseWordfenceFeed,
  rangeOf,
  vulnerabilityTypeOf,
} from "./wordfence-feed.ts";

/** A v3 production document in the feed's own format (slashes escaped as PHP writes them). */
const WORDFENCE_FIXTURE = readFileSync(
  new URL("./fixtures/wordfence-v3-production.json", import.meta.url),
  "utf8",
);
const fixture = JSON.parse(WORDFENCE_FIXTURE) as Record<string, Record<string, unknown>>;

const BACKWPUP = "4bce4f04-e622-468a-ac7e-5903ad50cc13";
const EXCLUSIVE = "0b1e3c52-7d0a-4f43-9a53-5b6c2f6a1e01";
const SINGLE = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e02";
const CORE_BRANCHES = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f03";
const TWO_SOFTWARE = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a04";
const INFORMATIONAL = "4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b05";
const MINIMAL = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c06";
const BROKEN = "6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d07";

/** The document in chunks of `size` bytes, as a response body arrives. */
async function* chunksOf(text: string, size = 97): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, "utf8");
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function parseAll(text: string, size?: number): Promise<FeedEntry[]> {
  const entries: FeedEntry[] = [];
  for await (const entry of parseWordfenceFeed(chunksOf(text, size))) entries.push(entry);
  return entries;
}

function recordOf(id: string) {
  const entry = mapWordfenceRecord(id, fixture[id]);
  if (!("record" in entry)) throw new Error(`${id}: ${entry.reason}`);
  return entry.record;
}

describe("Wordfence v3 ranges", () => {
  it("reads `* - X` inclusive as <= X", () => {
    expect(
      rangeOf({ from_version: "*", from_inclusive: true, to_version: "4.0.2", to_inclusive: true }),
    ).toEqual({
      last_affected: "4.0.2",
      prefix: "<=",
      version: "4.0.2",
    });
  });

  it("reads `* - X` with X excluded as < X (fixed in X)", () => {
    expect(
      rangeOf({ from_version: "*", from_inclusive: true, to_version: "4.1.1", to_inclusive: false }),
    ).toEqual({
      fixed: "4.1.1",
      prefix: "<",
      version: "4.1.1",
    });
  });

  it("keeps exclusive lower and upper bounds of `A - B`", () => {
    expect(
      rangeOf({ from_version: "1.0", from_inclusive: false, to_version: "1.2.3", to_inclusive: false }),
    ).toEqual({
      introduced: "1.0",
      introduced_inclusive: false,
      fixed: "1.2.3",
      prefix: "<",
      version: "1.2.3",
    });
    expect(
      rangeOf({ from_version: "1.0", from_inclusive: true, to_version: "1.2.3", to_inclusive: true }),
    ).toEqual({
      introduced: "1.0",
      introduced_inclusive: true,
      last_affected: "1.2.3",
      prefix: "<=",
      version: "1.2.3",
    });
  });

  it("reads a single version (from = to) as exactly that version", () => {
    expect(
      rangeOf({ from_version: "2.5", from_inclusive: true, to_version: "2.5", to_inclusive: true }),
    ).toEqual({
      introduced: "2.5",
      introduced_inclusive: true,
      last_affected: "2.5",
      prefix: "",
      version: "2.5",
    });
  });

  it("reads `* - *` as every version", () => {
    expect(rangeOf({ from_version: "*", from_inclusive: true, to_version: "*", to_inclusive: true })).toEqual(
      {
        prefix: "<=",
        version: "*",
      },
    );
  });
});

describe("Wordfence v3 records", () => {
  it("maps the real record of typisttech/wordfence-api's tests field by field", () => {
    const { sourceHash, ...record } = recordOf(BACKWPUP);
    expect(sourceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record).toEqual({
      id: BACKWPUP,
      source: "wordfence-intelligence",
      source_url: `https://www.wordfence.com/threat-intel/vulnerabilities/id/${BACKWPUP}`,
      cve: "CVE-2023-5775",
      title: "BackWPup <= 4.0.2 - Plaintext Storage of Backup Destination Password",
      description: expect.stringContaining("Plaintext Storage of Backup Destination Password"),
      vuln_type: "Plaintext Storage of Backup Destination Password",
      software_type: "plugin",
      slug: "backwpup",
      software_name: "BackWPup – WordPress Backup & Restore Plugin",
      affected: [{ last_affected: "4.0.2", prefix: "<=", version: "4.0.2" }],
      fixed_in: "4.0.3",
      affected_possibly_incomplete: false,
      software: [
        {
          software_type: "plugin",
          slug: "backwpup",
          software_name: "BackWPup – WordPress Backup & Restore Plugin",
          affected: [{ last_affected: "4.0.2", prefix: "<=", version: "4.0.2" }],
          fixed_in: "4.0.3",
        },
      ],
      cvss_score: 2.2,
      cvss_vector: "CVSS:3.1/AV:N/AC:H/PR:H/UI:N/S:U/C:L/I:N/A:N",
      cvss_version: "3.1",
      cvss_rating: "Low",
      cwe: "CWE-256",
      published_at: "2024-02-23T00:00:00Z",
      updated_at: "2024-02-24T08:38:15Z",
      researchers: ["Stefan Marjanov"],
      references: [`https://www.wordfence.com/threat-intel/vulnerabilities/id/${BACKWPUP}?source=api-prod`],
      attribution: expect.stringContaining("Copyright 2012-2024 Defiant Inc."),
    });
    // The licence asks for Defiant's notice and licence, and MITRE's for the CVE data.
    expect(record.attribution).toContain(
      "https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/",
    );
    expect(record.attribution).toContain("Copyright 1999-2024 The MITRE Corporation");
  });

  it("keeps exclusive bounds and no fixed version for an unpatched range", () => {
    const record = recordOf(EXCLUSIVE);
    expect(record.affected).toEqual([
      { introduced: "1.0", introduced_inclusive: false, fixed: "1.2.3", prefix: "<", version: "1.2.3" },
    ]);
    // An excluded upper bound is the first unaffected version (README §1.3), as the import reads it.
    expect(record.fixed_in).toBe("1.2.3");
    expect(record.vuln_type).toBe("Authenticated (Contributor+) Stored Cross-Site Scripting via Shortcode");
    expect(record.researchers).toEqual(["Jane Doe", "John Roe"]);
  });

  it("reads a single affected version", () => {
    expect(recordOf(SINGLE).affected).toEqual([
      { introduced: "2.5", introduced_inclusive: true, last_affected: "2.5", prefix: "", version: "2.5" },
    ]);
    expect(recordOf(SINGLE).researchers).toBeNull();
  });

  it("keeps every range of a software, and its newest patched version", () => {
    const record = recordOf(CORE_BRANCHES);
    expect(record.software_type).toBe("core");
    expect(record.affected).toEqual([
      { introduced: "5.9", introduced_inclusive: true, fixed: "5.9.4", prefix: "<", version: "5.9.4" },
      {
        introduced: "6.0",
        introduced_inclusive: true,
        last_affected: "6.0.1",
        prefix: "<=",
        version: "6.0.1",
      },
    ]);
    expect(record.fixed_in).toBe("6.0.2");
  });

  it("keeps every software of a record, the first by kind and slug as the main one", () => {
    const record = recordOf(TWO_SOFTWARE);
    expect(record.software.map((item) => `${item.software_type}/${item.slug}`)).toEqual([
      "plugin/example-forms",
      "theme/example-theme",
    ]);
    expect(record.slug).toBe("example-forms");
    expect(record.fixed_in).toBeNull();
    expect(record.software[1]!.fixed_in).toBe("1.5");
  });

  it("maps an informational record (every version, no CVE, no CVSS)", () => {
    const record = recordOf(INFORMATIONAL);
    expect(record.affected).toEqual([{ prefix: "<=", version: "*" }]);
    expect(record).toMatchObject({ cve: null, cvss_score: null, cvss_vector: null, cwe: null });
    // Defiant's notice only: there is no CVE data to credit MITRE for.
    expect(record.attribution).not.toContain("MITRE");
  });

  it("maps a record without any optional field", () => {
    const record = recordOf(MINIMAL);
    expect(record).toMatchObject({
      description: "",
      cve: null,
      cvss_score: null,
      cvss_rating: null,
      cwe: null,
      published_at: null,
      updated_at: null,
      researchers: null,
      references: [],
      attribution: null,
      software_name: null,
      fixed_in: null,
    });
  });

  it("says why a record is refused", () => {
    expect(mapWordfenceRecord(BROKEN, fixture[BROKEN])).toEqual({
      key: BROKEN,
      reason: "software: lists no software",
    });
    expect(mapWordfenceRecord("not-its-id", fixture[BACKWPUP])).toMatchObject({
      reason: expect.stringContaining("differs from its key"),
    });
    expect(mapWordfenceRecord("x", { ...fixture[BACKWPUP], id: "x" })).toMatchObject({
      reason: "id: must be a UUID",
    });
    const badCvss = { ...fixture[BACKWPUP], cvss: { vector: "CVSS:3.1/AV:Q", score: 2, rating: "Low" } };
    expect(mapWordfenceRecord(BACKWPUP, badCvss)).toMatchObject({
      reason: expect.stringContaining("cvss_vector"),
    });
  });

  it("hashes the content, not the `updated` date", () => {
    const moved = { ...fixture[BACKWPUP], updated: "2026-01-01 00:00:00" };
    const edited = { ...fixture[BACKWPUP], description: "Another description." };
    const hash = (value: unknown) =>
      (mapWordfenceRecord(BACKWPUP, value) as { record: { sourceHash: string } }).record.sourceHash;
    expect(hash(moved)).toBe(hash(fixture[BACKWPUP]));
    expect(hash(edited)).not.toBe(hash(fixture[BACKWPUP]));
  });

  it("reads the feed's dates as UTC", () => {
    expect(feedDate("2024-02-24 08:38:15")).toBe("2024-02-24T08:38:15Z");
    expect(feedDate("")).toBeNull();
    expect(feedDate("yesterday")).toBeNull();
    expect(vulnerabilityTypeOf("No version here")).toBeNull();
  });
});

describe("parseWordfenceFeed", () => {
  it("reads every record of a document in small chunks, one at a time", async () => {
    const entries = await parseAll(WORDFENCE_FIXTURE, 7);
    expect(entries.map((entry) => entry.key)).toEqual(Object.keys(fixture));
    expect(entries.filter((entry) => "reason" in entry).map((entry) => entry.key)).toEqual([BROKEN]);
  });

  it("hands records on before the document has ended", async () => {
    const source = (async function* () {
      yield* chunksOf(WORDFENCE_FIXTURE.slice(0, WORDFENCE_FIXTURE.indexOf(`"${EXCLUSIVE}"`)));
      throw new Error("the connection dropped");
    })();
    const seen: string[] = [];
    await expect(async () => {
      for await (const entry of parseWordfenceFeed(source)) seen.push(entry.key);
    }).rejects.toThrow("the connection dropped");
    expect(seen).toEqual([BACKWPUP]);
  });

  it("refuses a truncated document", async () => {
    await expect(parseAll(WORDFENCE_FIXTURE.slice(0, 5000))).rejects.toThrow(
      new FeedDocumentError("The feed's document ended before it was complete (truncated)."),
    );
  });

  it("refuses what is not a JSON object keyed by record id", async () => {
    await expect(parseAll("")).rejects.toThrow("The feed's document is empty.");
    await expect(parseAll(`[${JSON.stringify(fixture[BACKWPUP])}]`)).rejects.toThrow("not a JSON object");
    await expect(parseAll("<html>Service Unavailable</html>")).rejects.toThrow("not a JSON object");
    await expect(parseAll('{"a": {"id": "a"}, nope}')).rejects.toThrow("not valid JSON");
    await expect(parseAll(`${WORDFENCE_FIXTURE} {}`)).rejects.toThrow("not valid JSON");
  });

  it("accepts an empty object and white space around the document", async () => {
    expect(await parseAll("\n {} \n")).toEqual([]);
  });
});
