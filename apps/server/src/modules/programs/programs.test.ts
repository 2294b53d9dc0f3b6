import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCaller } from "../../test/api-client.ts";
import {
  createProgramTestApp,
  type Harness,
  type Listed,
  program,
  programHelpers,
} from "./program-test-kit.ts";
import { MESSAGES } from "./rules.ts";

/** The vendor's programs (spec §5, §7): creating, updating, listing and counting. */

let harness: Harness;
const { vendor, create } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

describe("creating and updating programs (spec §5)", () => {
  it("creates a pending program with the Program fields and an empty contact e-mail as null", async () => {
    const { caller } = await vendor();
    const response = await caller.post(
      "/api/products",
      program({ vendor_contact_email: "", plan: "premium" }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      platform: "wordpress",
      kind: "plugin",
      name: "Acme Forms",
      vendor_contact_email: null,
      dependencies: null,
      plan: "premium",
      is_active: false,
      is_lobby_product: false,
      activated_at: null,
      fix_deadline_days: 30,
      open_reports: 0,
    });
  });

  it("answers 422 with each required field's message", async () => {
    const { caller } = await vendor();
    const response = await caller.post("/api/products", { kind: "plugin" });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      name: ["Software name is required."],
      product_url: ["Software URL is required."],
      slug: ["Slug is required."],
      vendor_website_url: ["Website URL is required."],
    });
  });

  it("applies the URL, e-mail and slug rules with the specification's words", async () => {
    const { caller } = await vendor();
    const response = await caller.post(
      "/api/products",
      program({
        product_url: "acme.example",
        vendor_website_url: "ftp://acme.example",
        vendor_contact_email: "not-an-email",
        slug: "Acme--Forms",
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      product_url: ["The URL must be a valid URL including the http(s):// protocol."],
      vendor_website_url: ["The URL must be a valid URL including the http(s):// protocol."],
      vendor_contact_email: ["Must be a valid email address."],
      slug: [
        "Slug must be lowercase letters and digits in groups joined by single hyphens (for example my-plugin).",
      ],
    });
  });

  it("never duplicates a slug: its own, a lobby product's or another vendor's", async () => {
    const first = await vendor();
    const second = await vendor();
    const mine = await create(first.caller);
    const again = await first.caller.post("/api/products", program({ slug: mine.slug }));
    expect(again.json().errors).toEqual({ slug: [MESSAGES.slugOwn] });
    const taken = await second.caller.post("/api/products", program({ slug: mine.slug }));
    expect(taken.json().errors).toEqual({ slug: [MESSAGES.slugOther] });
    const lobby = await first.caller.post("/api/products", program({ slug: "web-directory-free" }));
    expect(lobby.json().errors).toEqual({ slug: [MESSAGES.slugLobby] });
    // The same slug as a theme is another product.
    expect(
      (await first.caller.post("/api/products", program({ slug: mine.slug, kind: "theme" }))).statusCode,
    ).toBe(201);
  });

  it("updates a program, and keeps an active program's slug and kind", async () => {
    const { caller } = await vendor();
    const created = await create(caller);
    const renamed = await caller.post(
      `/api/products/${created.id}`,
      program({ slug: created.slug, name: "Renamed" }),
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe("Renamed");
    const edit = await caller.get(`/api/products/${created.id}/edit`);
    expect(edit.json()).toEqual({
      kind: "plugin",
      version: "1.0.0",
      name: "Renamed",
      product_url: "https://acme.example/forms",
      description: "Forms for WordPress.",
      dependencies: null,
      vendor_contact_email: "security@acme.example",
      slug: created.slug,
      vendor_website_url: "https://acme.example",
      plan: "both",
    });
    await caller.post(`/api/products/${created.id}/activate-product`, { is_lobby_product: false });
    const moved = await caller.post(
      `/api/products/${created.id}`,
      program({ slug: `${created.slug}-2`, kind: "theme" }),
    );
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors).toEqual({ slug: [MESSAGES.activeSlug], kind: [MESSAGES.activeKind] });
  });
});

describe("program lists and counters", () => {
  let caller: ApiCaller;
  const ids: number[] = [];

  beforeAll(async () => {
    ({ caller } = await vendor());
    for (let index = 0; index < 23; index += 1)
      ids.push((await create(caller, { name: `Program ${index}` })).id);
    for (const id of ids.slice(0, 3))
      await caller.post(`/api/products/${id}/activate-product`, { is_lobby_product: false });
  });

  it("filters by the fixed strings and paginates with next_page_url", async () => {
    const pending = await caller.get("/api/products?filter=vdp-pending");
    expect(pending.statusCode).toBe(200);
    const body = pending.json<{ data: unknown[]; pagination: Record<string, unknown> }>();
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toMatchObject({ current_page: 1, total: 20, last_page: 1, next_page_url: null });
    const active = await caller.get("/api/products?filter=all-active&per_page=2");
    expect(active.json().pagination).toMatchObject({
      current_page: 1,
      total: 3,
      next_page_url: "/api/products?filter=all-active&per_page=2&page=2",
    });
    const last = await caller.get("/api/products?filter=all-active&per_page=2&page=2");
    expect(last.json<{ data: unknown[] }>().data).toHaveLength(1);
    expect(last.json<Listed>().pagination.next_page_url).toBeNull();
    const beyond = await caller.get("/api/products?filter=all-active&page=9");
    expect(beyond.json()).toMatchObject({ data: [], pagination: { current_page: 9, next_page_url: null } });
    // Without a filter the list is the active one.
    expect((await caller.get("/api/products")).json<Listed>().pagination.total).toBe(3);
  });

  it("answers the list page's server render in-process as the API answers the vendor, and nobody else", async () => {
    const cookie = [...caller.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const query = { filter: "vdp-pending", page: 1 } as const;
    const read = harness.app.pageRead("/products", {}, query, { cookie });
    expect(await read).toStrictEqual((await caller.get("/api/products?filter=vdp-pending&page=1")).json());
    expect(await harness.app.pageRead("/products/details", {}, {}, { cookie })).toStrictEqual(
      (await caller.get("/api/products/details")).json(),
    );
    for (const route of ["/products", "/products/details"] as const)
      await expect(harness.app.pageRead(route, {}, {}, {}), route).rejects.toMatchObject({ status: 401 });
  });

  it("refuses an unknown filter and a bad page with 422", async () => {
    for (const query of ["filter=active", "filter=", "filter=ALL-ACTIVE", "page=0", "page=abc", "page=-1"]) {
      const response = await caller.get(`/api/products?${query}`);
      expect(response.statusCode, query).toBe(422);
    }
  });

  it("computes the counters from report rows", async () => {
    const [first, second, third] = ids as [number, number, number];
    const insert = (productId: number, status: string, fixed: string | null, deadline: string | null) =>
      harness.database.sql.query(
        `insert into reports (product_id, title, status, fixed_at, fix_deadline_at, vendor_notified_at)
         values ($1, 'A report', $2, $3, $4, now() - interval '40 days')`,
        [productId, status, fixed, deadline],
      );
    await insert(first, "awaiting_fix", null, "2030-01-01");
    await insert(first, "fixed", "2026-01-10", "2026-01-20");
    await insert(second, "published", "2026-02-10", "2026-02-20");
    await insert(second, "fixed", "2026-03-30", "2026-03-20");
    await insert(third, "submitted", null, null);
    await insert(third, "fix_pending", null, "2030-01-01");
    expect((await caller.get("/api/products/details")).json()).toEqual({
      active: 3,
      pending: 20,
      open: 2,
      reports: 5,
      fixed: 3,
      fixedOnTime: 2,
    });
    const open = await caller.get("/api/products?filter=open-reports");
    expect(open.json<{ data: { id: number; open_reports: number }[] }>().data.map((row) => row.id)).toEqual([
      first,
      third,
    ]);
    expect((await caller.get(`/api/products/${first}`)).json().counters).toEqual({
      reports: 2,
      open: 1,
      fixed: 1,
      fixedOnTime: 1,
    });
  });

  it("answers 404 for another vendor's program and for a non-numeric id", async () => {
    const other = await vendor();
    const [id] = ids as [number];
    for (const url of [`/api/products/${id}`, `/api/products/${id}/edit`]) {
      const response = await other.caller.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain("Program 0");
    }
    expect((await other.caller.post(`/api/products/${id}`, program())).statusCode).toBe(404);
    expect(
      (await other.caller.post(`/api/products/${id}/activate-product`, { is_lobby_product: false }))
        .statusCode,
    ).toBe(404);
    for (const bad of ["abc", "1e3", "12abc", "0", "-1", "99999999999"]) {
      expect((await caller.get(`/api/products/${bad}`)).statusCode, bad).toBe(404);
      expect((await caller.get(`/api/products/${bad}/edit`)).statusCode, bad).toBe(404);
    }
  });
});
