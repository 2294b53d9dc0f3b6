import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platforms, products } from "../../db/schema/index.ts";
import { createTestApp } from "../../test/app.ts";

describe("GET /api/public/footer/metrics", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    harness = await createTestApp();
    // The migrations create the WordPress platform.
    const [platform] = await harness.database.db
      .select()
      .from(platforms)
      .where(eq(platforms.slug, "wordpress"));
    const platformId = platform?.id ?? 0;
    await harness.database.db.insert(products).values([
      { platformId, kind: "plugin", slug: "active-one", name: "Active one", isActive: true },
      { platformId, kind: "theme", slug: "active-two", name: "Active two", isActive: true },
      { platformId, kind: "plugin", slug: "pending", name: "Pending", isActive: false },
      { platformId, kind: "plugin", slug: "lobby", name: "Lobby", isLobbyProduct: true },
    ]);
  });
  afterAll(() => harness.close());

  it("counts the active vulnerability disclosure programs", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/public/footer/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ active_vdp_directory_count: 2 });
  });

  it("lets clients cache the answer for one day", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/public/footer/metrics" });
    expect(response.headers["cache-control"]).toBe("public, max-age=86400");
  });

  it("answers a revalidation with the same ETag by 304, without a body", async () => {
    const first = await harness.app.inject({ method: "GET", url: "/api/public/footer/metrics" });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await harness.app.inject({
      method: "GET",
      url: "/api/public/footer/metrics",
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });
});
