import { expect } from "vitest";
import { importPlugins, importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS, WEB_DIRECTORY_PLUGIN } from "../../db/import-fixtures.ts";
import { type ApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";

/** What the tests of the vendor's programs (and of the vendor account) share. */

export type Harness = Awaited<ReturnType<typeof createTestApp>>;
export type Listed = {
  data: Record<string, unknown>[];
  pagination: { total: number; next_page_url: string | null };
};
export type Me = { vendor: { id: number; active_count: number } };

export const program = (overrides: Record<string, unknown> = {}) => ({
  kind: "plugin",
  version: "1.0.0",
  name: "Acme Forms",
  product_url: "https://acme.example/forms",
  description: "Forms for WordPress.",
  dependencies: "",
  vendor_contact_email: "security@acme.example",
  slug: `acme-forms-${Math.random().toString(36).slice(2, 8)}`,
  vendor_website_url: "https://acme.example",
  plan: "both",
  ...overrides,
});

/** A test app with a lobby product (a plugin of the directory) and one imported vulnerability. */
export async function createProgramTestApp(): Promise<Harness> {
  const harness = await createTestApp();
  await importPlugins(harness.database, [JSON.stringify(WEB_DIRECTORY_PLUGIN)]);
  await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
  return harness;
}

/** Vendors and their programs, on the harness of the calling test file (set in its beforeAll). */
export function programHelpers(harnessOf: () => Harness) {
  async function verify(email: string) {
    await harnessOf().database.sql.query("update users set email_verified_at = now() where email = $1", [
      email,
    ]);
  }

  async function vendor(options: { email?: string; verified?: boolean } = {}) {
    const registered = await registerUser(harnessOf().app, {
      role: "vendor",
      ...(options.email && { email: options.email }),
    });
    if (options.verified !== false) await verify(registered.email);
    return registered;
  }

  async function create(caller: ApiCaller, overrides: Record<string, unknown> = {}) {
    const response = await caller.post("/api/products", program(overrides));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number; slug: string; is_active: boolean }>();
  }

  const productIdBySlug = async (slug: string) =>
    (await harnessOf().database.sql.query<{ id: number }>("select id from products where slug = $1", [slug]))
      .rows[0]?.id ?? 0;

  return { verify, vendor, create, productIdBySlug };
}
