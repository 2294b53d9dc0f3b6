import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { frameAncestorsOf } from "./service.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;
type Embed = {
  vendor_name: string;
  programs: { id: number; kind: string; slug: string; name: string }[];
  frame_ancestors: string[];
};
let harness: Harness;

const suffix = () => Math.random().toString(36).slice(2, 8);

async function vendor(website: string | null) {
  const registered = await registerUser(harness.app, { role: "vendor" });
  await harness.database.sql.query("update users set email_verified_at = now() where email = $1", [
    registered.email,
  ]);
  const account = await registered.caller.get("/api/vendor/account");
  const key = account.json<{ public_key: string }>().public_key;
  if (website)
    await harness.database.sql.query(
      "update vendors set url = $2, vendor_name = 'Acme Security' where public_key = $1",
      [key, website],
    );
  return { caller: registered.caller, key };
}

async function program(caller: ApiCaller, overrides: Record<string, unknown>, activate: boolean) {
  const created = await caller.post("/api/products", {
    kind: "plugin",
    name: "Acme Forms",
    product_url: "https://wordpress.org/plugins/acme-forms/",
    slug: `acme-forms-${suffix()}`,
    vendor_website_url: "https://acme.example",
    ...overrides,
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id, slug } = created.json<{ id: number; slug: string }>();
  if (activate) {
    const activated = await caller.post(`/api/products/${id}/activate-product`, { is_lobby_product: false });
    expect(activated.statusCode, activated.body).toBe(200);
  }
  return { id, slug };
}

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

describe("GET /api/v1/embed/vendors/{public_key}", () => {
  it("answers the vendor's name, its active programs only and its own hosts as frame ancestors", async () => {
    const { caller, key } = await vendor("https://www.Acme.example/security");
    const active = await program(
      caller,
      { name: "Acme Forms", vendor_website_url: "https://shop.acme.example" },
      true,
    );
    const wporg = await program(
      caller,
      { name: "Acme Gallery", kind: "theme", vendor_website_url: "https://wordpress.org/themes/acme" },
      true,
    );
    const pending = await program(
      caller,
      { name: "Acme Pending", vendor_website_url: "https://pending.example" },
      false,
    );

    const response = await createApiCaller(harness.app).get(`/api/v1/embed/vendors/${key}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Embed>();
    expect(body.vendor_name).toBe("Acme Security");
    expect(body.programs).toEqual([
      { id: active.id, kind: "plugin", slug: active.slug, name: "Acme Forms" },
      { id: wporg.id, kind: "theme", slug: wporg.slug, name: "Acme Gallery" },
    ]);
    expect(body.programs.map((item) => item.id)).not.toContain(pending.id);
    expect(body.frame_ancestors).toEqual([
      "https://acme.example",
      "https://www.acme.example",
      "https://shop.acme.example",
      "https://www.shop.acme.example",
    ]);
    // The same key in capitals is the same vendor.
    expect(
      (await createApiCaller(harness.app).get(`/api/v1/embed/vendors/${key.toUpperCase()}`)).statusCode,
    ).toBe(200);
  });

  it("answers a vendor without a website or programs with empty lists", async () => {
    const { key } = await vendor(null);
    const response = await createApiCaller(harness.app).get(`/api/v1/embed/vendors/${key}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<Embed>()).toMatchObject({ programs: [], frame_ancestors: [] });
  });

  it("answers 404 for an unknown or malformed key", async () => {
    const anonymous = createApiCaller(harness.app);
    for (const key of ["00000000-0000-4000-8000-000000000000", "not-a-key", "1", "%27%20or%201%3D1"]) {
      const response = await anonymous.get(`/api/v1/embed/vendors/${key}`);
      expect(response.statusCode, key).toBe(404);
      expect(response.json<{ message: string }>().message).toBe("This reporting form is not available.");
    }
  });
});

describe("frameAncestorsOf", () => {
  it("keeps own https hosts and drops shared hosts, IP addresses and non-web URLs", () => {
    expect(
      frameAncestorsOf([
        "https://acme.example",
        "http://acme.example/x",
        "https://github.com/acme",
        "https://acme.wordpress.com",
        "https://127.0.0.1:8080",
        "ftp://files.acme.example",
        "not a url",
        null,
      ]),
    ).toEqual(["https://acme.example", "https://www.acme.example"]);
  });
});
