import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiCaller, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import { type Harness, reportTestKit, sampleReport } from "./report-test-kit.ts";
import { EMBED_MESSAGES } from "./submission-service.ts";

/** Issue 7: a report from `/iframe/vendor?vendor={public key}` targets only that vendor's programs. */

let harness: Harness;
let staff: ApiCaller;
const kit = reportTestKit(
  () => harness,
  () => staff,
);

beforeAll(async () => {
  harness = await createTestApp();
  staff = await createStaffCaller(harness.app, harness.database);
});
afterAll(() => harness.close());

const signedOut = (overrides: Record<string, unknown>) => ({
  ...sampleReport(overrides),
  email: uniqueEmail("embed"),
});

describe("a report from a vendor's embedded form", () => {
  it("is taken for the vendor's own program, signed out or in, whatever the slug's case", async () => {
    const slug = `embed-own-${Math.random().toString(36).slice(2, 8)}`;
    const vendor = await kit.vendorWithProgram(slug);
    const anonymous = await kit
      .anonymous()
      .post("/api/reports", signedOut({ product_slug: slug, embed_key: vendor.publicKey }));
    expect(anonymous.statusCode, anonymous.body).toBe(201);
    const researcher = await kit.researcherAccount();
    const signedIn = await researcher.caller.post(
      "/api/reports",
      sampleReport({ product_slug: slug.toUpperCase(), embed_key: vendor.publicKey.toUpperCase() }),
    );
    expect(signedIn.statusCode, signedIn.body).toBe(201);
  });

  it("refuses another vendor's product, a lobby product and an unknown product with 422, storing nothing", async () => {
    const own = `embed-mine-${Math.random().toString(36).slice(2, 8)}`;
    const theirs = `embed-theirs-${Math.random().toString(36).slice(2, 8)}`;
    const vendor = await kit.vendorWithProgram(own);
    await kit.vendorWithProgram(theirs);
    const lobby = `embed-lobby-${Math.random().toString(36).slice(2, 8)}`;
    await (await kit.researcherAccount()).caller.post("/api/reports", sampleReport({ product_slug: lobby }));
    const unknown = `embed-unknown-${Math.random().toString(36).slice(2, 8)}`;

    for (const slug of [theirs, lobby, unknown]) {
      const refused = await kit
        .anonymous()
        .post("/api/reports", signedOut({ product_slug: slug, embed_key: vendor.publicKey }));
      expect(refused.statusCode, slug).toBe(422);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors.product_slug).toEqual([
        EMBED_MESSAGES.notTheVendors(vendor.vendorName),
      ]);
    }
    const { rows } = await harness.database.sql.query("select 1 from products where slug = $1", [unknown]);
    expect(rows).toEqual([]);
    // The same kind matters: the vendor's plugin slug as a theme is not theirs.
    const asTheme = await kit
      .anonymous()
      .post("/api/reports", signedOut({ kind: "theme", product_slug: own, embed_key: vendor.publicKey }));
    expect(asTheme.statusCode).toBe(422);
  });

  it("answers an unknown or malformed key with 404", async () => {
    const slug = `embed-key-${Math.random().toString(36).slice(2, 8)}`;
    await kit.vendorWithProgram(slug);
    for (const key of ["00000000-0000-4000-8000-000000000000", "not-a-key", "", 42]) {
      const refused = await kit
        .anonymous()
        .post("/api/reports", signedOut({ product_slug: slug, embed_key: key }));
      expect(refused.statusCode, String(key)).toBe(404);
      expect(refused.json<{ message: string }>().message).toBe(EMBED_MESSAGES.unknownKey);
    }
  });
});
