import type { ProductContact } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPlugins } from "../../db/import.ts";
import { WEB_DIRECTORY_PLUGIN } from "../../db/import-fixtures.ts";
import type { ApiCaller } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";

/**
 * Issue 19: the plugin directory's author profile and contributors are imported and offered to staff
 * as routes to a vendor without a program (they were read from the file and dropped).
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
let staff: ApiCaller;

beforeAll(async () => {
  harness = await createTestApp();
  staff = await createStaffCaller(harness.app, harness.database);
  const plugins = [
    WEB_DIRECTORY_PLUGIN,
    {
      ...WEB_DIRECTORY_PLUGIN,
      slug: "odd-profile-plugin",
      author_profile: "https://evil.example/profiles/x/",
      contributors: ["fine-user", "bad user/../", "mihail-chepovskiy"],
    },
  ];
  const result = await importPlugins(
    harness.database,
    plugins.map((plugin) => JSON.stringify(plugin)),
  );
  expect(result.rejected).toEqual([]);
});
afterAll(() => harness.close());

async function routesOf(slug: string) {
  const { rows } = await harness.database.sql.query<{ id: number }>(
    "select id from products where slug = $1 and kind = 'plugin'",
    [slug],
  );
  const response = await staff.get(`/api/staff/products/${rows[0]?.id}/contact`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ProductContact>().routes.map((route) => [route.kind, route.url ?? route.text]);
}

describe("a product's WordPress.org people as routes to its vendor", () => {
  it("lists the author's profile and each contributor's profile from the plugin directory", async () => {
    const routes = await routesOf(WEB_DIRECTORY_PLUGIN.slug);
    expect(routes).toContainEqual(["author_profile", "https://profiles.wordpress.org/mihail-chepovskiy/"]);
    expect(routes).toContainEqual(["contributor", "https://profiles.wordpress.org/shamalli/"]);
  });

  it("sends staff only to profiles.wordpress.org, each profile once", async () => {
    const routes = await routesOf("odd-profile-plugin");
    expect(routes.filter(([kind]) => kind === "author_profile")).toEqual([]);
    expect(routes.filter(([kind]) => kind === "contributor")).toEqual([
      ["contributor", "https://profiles.wordpress.org/fine-user/"],
      ["contributor", "https://profiles.wordpress.org/mihail-chepovskiy/"],
    ]);
  });
});
