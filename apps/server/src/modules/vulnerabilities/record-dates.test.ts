import { OSV_ID_PREFIX, type VulnerabilityDetail } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS, WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { csafPathOf } from "./csaf.ts";

/**
 * One date source for every format of a record (issue 38, decision 025): the OSV record, the CSAF
 * advisory, its ROLIE entry, the sitemap's lastmod and the record answer's `record_dates` (which the
 * page's JSON-LD uses) say the same two dates, for a record its source dates and for one it does not.
 */

const SITE = "https://site.example.test";
const APP = "https://app.example.test";

let harness: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: APP, SITE_URL: SITE });
  const summary = await importVulnerabilities(
    harness.database,
    [SMASH_BALLOON_XSS, WEB_DIRECTORY_SQLI].map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
  // Our own later rewrite of both rows (a re-import that changed a value): a change of the entry only
  // where the source gives no date.
  await harness.database.sql.query(
    "update vulnerabilities set updated_at = created_at + interval '2 hours 0.25 seconds' where id = any($1::uuid[])",
    [[SMASH_BALLOON_XSS.id, WEB_DIRECTORY_SQLI.id]],
  );
});
afterAll(() => harness.close());

const getJson = async <T>(url: string): Promise<T> => {
  const response = await harness.app.inject({ method: "GET", url });
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return JSON.parse(response.body) as T;
};

/** Every date a record is given, by format. */
async function datesOf(id: string) {
  const record = await getJson<VulnerabilityDetail>(`/api/v1/vulnerabilities/${id}`);
  const osv = await getJson<{ published: string; modified: string }>(`/api/v1/osv/${OSV_ID_PREFIX}${id}`);
  const csaf = await getJson<{
    document: { tracking: { initial_release_date: string; current_release_date: string } };
  }>(csafPathOf(id));
  const sitemap = (await harness.app.inject({ method: "GET", url: "/sitemap-vulnerabilities-1.xml" })).body;
  const path = new URL(record.url).pathname;
  const lastmod = new RegExp(`<loc>${SITE}${path}</loc><lastmod>([^<]+)</lastmod>`).exec(sitemap)?.[1];
  const year = new Date(osv.published).getUTCFullYear();
  const feed = await getJson<{ feed: { entry: { id: string; published: string; updated: string }[] } }>(
    `/.well-known/csaf/feed-tlp-white-${year}-1.json`,
  );
  const entry = feed.feed.entry.find((item) => item.id === `${OSV_ID_PREFIX}${id}`);
  return { record, osv, csaf: csaf.document.tracking, lastmod, entry };
}

describe("a record's dates", () => {
  it("with source dates: the source's publication and last update, in every format", async () => {
    const { record, osv, csaf, lastmod, entry } = await datesOf(WEB_DIRECTORY_SQLI.id);
    const expected = { published: "2024-06-13T06:00:02Z", modified: "2024-08-01T20:12:07Z" };
    expect({ published: osv.published, modified: osv.modified }).toEqual(expected);
    expect(record.record_dates).toEqual(expected);
    expect(csaf).toMatchObject({
      initial_release_date: expected.published,
      current_release_date: expected.modified,
    });
    expect(lastmod).toBe(expected.modified);
    expect(entry).toMatchObject({ published: expected.published, updated: expected.modified });
  });

  it("without source dates: the day it was added here and its last change here, in every format", async () => {
    const { rows } = await harness.database.sql.query<{ created_at: Date; updated_at: Date }>(
      "select created_at, updated_at from vulnerabilities where id = $1",
      [SMASH_BALLOON_XSS.id],
    );
    const iso = (date: Date) => date.toISOString().replace(".000Z", "Z");
    const expected = { published: iso(rows[0]!.created_at), modified: iso(rows[0]!.updated_at) };
    expect(expected.modified > expected.published).toBe(true);
    const { record, osv, csaf, lastmod, entry } = await datesOf(SMASH_BALLOON_XSS.id);
    expect({ published: osv.published, modified: osv.modified }).toEqual(expected);
    expect(record.record_dates).toEqual(expected);
    expect(csaf).toMatchObject({
      initial_release_date: expected.published,
      current_release_date: expected.modified,
    });
    expect(lastmod).toBe(expected.modified);
    expect(entry).toMatchObject({ published: expected.published, updated: expected.modified });
  });
});
