import { CHECK_VERSION_MESSAGE, CheckResponse } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { CORE_SQLI, SMASH_BALLOON_XSS } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * Issue 17: the batch check says whether it knows each product, refuses what is not a version,
 * resolves `latest` to the product's current version and matches slugs whatever their case.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  harness = await createTestApp();
  const summary = await importVulnerabilities(
    harness.database,
    [SMASH_BALLOON_XSS, CORE_SQLI].map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
  // Before the first check (the check keeps products per data version): a current version for the
  // plugin, none for core, and a known plugin without any vulnerability.
  await harness.database.sql.query(
    "update products set version = '4.0.10' where slug = 'custom-facebook-feed'",
  );
  await harness.database.sql.query("update products set version = null where kind = 'core'");
  await harness.database.sql.query(
    `insert into products (platform_id, kind, slug, name, version)
     select id, 'plugin', 'quiet-plugin', 'Quiet plugin', '2.0' from platforms where slug = 'wordpress'`,
  );
});
afterAll(() => harness.close());

const check = (items: unknown) =>
  harness.app.inject({ method: "POST", url: "/api/v1/check", payload: { items } });

describe("POST /api/v1/check, item by item", () => {
  it("tells an unknown product from a known one without vulnerabilities", async () => {
    const response = await check([
      { kind: "plugin", slug: "my-private-plugin", version: "1.0" },
      { kind: "plugin", slug: "quiet-plugin", version: "1.0" },
    ]);
    expect(response.statusCode).toBe(200);
    const { results } = CheckResponse.parse(response.json());
    expect(results).toEqual([
      {
        kind: "plugin",
        slug: "my-private-plugin",
        version: "1.0",
        known: false,
        checked_version: "1.0",
        vulnerabilities: [],
      },
      {
        kind: "plugin",
        slug: "quiet-plugin",
        version: "1.0",
        known: true,
        checked_version: "1.0",
        vulnerabilities: [],
      },
    ]);
  });

  it("matches a slug whatever its case, and answers with the slug as sent", async () => {
    const { results } = (
      await check([{ kind: "plugin", slug: "Custom-Facebook-Feed", version: "4.1" }])
    ).json() as CheckResponse;
    expect(results[0]).toMatchObject({ slug: "Custom-Facebook-Feed", known: true });
    expect(results[0]?.vulnerabilities.map((item) => item.id)).toEqual([SMASH_BALLOON_XSS.id]);
  });

  it("gives each vulnerability its range with every bound", async () => {
    const { results } = (
      await check([{ kind: "core", slug: "wordpress", version: "5.8.1" }])
    ).json() as CheckResponse;
    expect(results[0]?.vulnerabilities).toEqual([
      expect.objectContaining({ id: CORE_SQLI.id, affected_versions: ">= 5.8, < 5.8.3" }),
    ]);
  });

  it("compares `latest` as the product's current version, and compares nothing when that is unknown", async () => {
    const { results } = (
      await check([
        { kind: "plugin", slug: "custom-facebook-feed", version: "latest" },
        { kind: "core", slug: "wordpress", version: "Latest" },
      ])
    ).json() as CheckResponse;
    expect(results[0]).toMatchObject({ version: "latest", known: true, checked_version: "4.0.10" });
    expect(results[0]?.vulnerabilities.map((item) => item.id)).toEqual([SMASH_BALLOON_XSS.id]);
    expect(results[1]).toMatchObject({ known: true, checked_version: null, vulnerabilities: [] });
  });

  it("refuses a version that is not a version with 422 and says what to send", async () => {
    for (const version of ["abc", "v", "*", "latest version"]) {
      const response = await check([{ kind: "plugin", slug: "custom-facebook-feed", version }]);
      expect(response.statusCode, version).toBe(422);
      expect(JSON.stringify(response.json()), version).toContain(CHECK_VERSION_MESSAGE);
    }
    for (const version of ["5.8.1", "10", "2.0.0-beta1", "1.2.3+build.4"]) {
      const response = await check([{ kind: "plugin", slug: "custom-facebook-feed", version }]);
      expect(response.statusCode, version).toBe(200);
    }
  });
});
