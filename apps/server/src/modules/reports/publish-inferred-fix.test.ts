import { describe, expect, it } from "vitest";
import { type Detail, reportTestApp } from "./report-test-kit.ts";

/** Issue 17, "truthful status": a record published without a fix says whether a later version fixed it. */
const kit = reportTestApp();

/** A report on `<= 2.4.1` published unpatched, its product's current version being `version`. */
async function publishedUnpatched(version: string) {
  const researcher = await kit.researcherAccount();
  const slug = `inferred-${Math.random().toString(36).slice(2, 8)}`;
  const id = await kit.awaitingFix(researcher.caller, { product_slug: slug });
  await kit.harness.database.sql.query(
    "update reports set fix_deadline_at = now() - interval '1 day' where id = $1",
    [id],
  );
  await kit.harness.database.sql.query("update products set version = $2 where slug = $1", [slug, version]);
  const published = await kit.transition<Detail & { public_path: string }>(id, {
    action: "publish_unpatched",
  });
  const response = await kit.harness.app.inject({
    method: "GET",
    url: `/api/v1/vulnerabilities/${published.public_path.split("/").at(-1)}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ patched: boolean; fixed_in: string | null; inferred_fixed_from: string | null }>();
}

describe("publishing a record without a fix", () => {
  it("infers the fix from a current version past the affected range", async () => {
    expect(await publishedUnpatched("3.0")).toMatchObject({
      patched: false,
      fixed_in: null,
      inferred_fixed_from: "3.0",
    });
  });

  it("infers nothing while the current version is affected", async () => {
    expect(await publishedUnpatched("2.4.1")).toMatchObject({ patched: false, inferred_fixed_from: null });
  });
});
