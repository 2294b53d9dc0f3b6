import {
  API_KEY_PREFIX,
  isPageReadFailure,
  type PageReadQuery,
  type PageReadRoute,
  pageReadPath,
  pageReadSearch,
} from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededTestApp } from "../test/app.ts";
import { createSessionSecret, createStaffUser } from "../test/staff.ts";

/**
 * The in-process reads of server-rendered pages (decision 038) answer exactly what `GET /api/…`
 * answers, fail with its status and message, and cover every read a page uses.
 */
describe("public reads in-process", () => {
  let harness: Awaited<ReturnType<typeof createSeededTestApp>>;
  const ids = { vulnerability: "", productId: "", platform: "wordpress", kind: "", slug: "", researcher: "" };

  beforeAll(async () => {
    harness = await createSeededTestApp();
    const { rows } = await harness.database.sql.query<{
      slug: string;
      product_id: number;
      kind: string;
      product: string;
    }>(
      `select v.slug, p.id as product_id, p.kind, p.slug as product
       from vulnerabilities v join products p on p.id = v.product_id
       where v.withdrawn_at is null order by v.id limit 1`,
    );
    const row = rows[0];
    if (!row) throw new Error("the seeded database has no vulnerability");
    Object.assign(ids, {
      vulnerability: row.slug,
      productId: String(row.product_id),
      kind: row.kind,
      slug: row.product,
    });
  }, 300_000);
  afterAll(async () => {
    await harness?.close();
  });

  async function overHttp(route: PageReadRoute, params: Record<string, string>, query?: PageReadQuery) {
    const response = await harness.app.inject({
      method: "GET",
      url: `/api${pageReadPath(route, params)}${pageReadSearch(query)}`,
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }

  async function inProcess(route: PageReadRoute, params: Record<string, string>, query?: PageReadQuery) {
    try {
      return { status: 200, body: (await harness.app.pageRead(route, params, query)) as unknown };
    } catch (error) {
      if (!isPageReadFailure(error)) throw error;
      const { status, message, errors } = error;
      return { status, body: { status: "error", message, ...(errors && { errors }) } };
    }
  }

  const reads = (): [PageReadRoute, Record<string, string>, PageReadQuery?][] => [
    ["/v1/vulnerabilities", {}, { q: "contact form xss", per_page: 5, page: 2 }],
    ["/v1/vulnerabilities", {}, { kind: "plugin", severity: "high", patched: "false" }],
    ["/v1/vulnerabilities/:id", { id: ids.vulnerability }],
    ["/v1/products/:platform/:kind/:slug", { platform: ids.platform, kind: ids.kind, slug: ids.slug }],
    ["/products/:id/vulnerabilities", { id: ids.productId }, { "filter[tab]": "fixed", page: 1 }],
    ["/products/:id/contributors", { id: ids.productId }],
    ["/v1/statistics/counts", {}],
    ["/v1/statistics/:platform/:timeframe", { platform: "wordpress", timeframe: "all-time" }],
    ["/v1/leaderboard/:type", { type: "all-time" }],
    ["/v1/programs", {}, { page: 1, per_page: 50 }],
    ["/public/footer/metrics", {}],
  ];

  it("answers every read a page uses exactly as the HTTP API answers it, pagination links included", async () => {
    for (const [route, params, query] of reads()) {
      const http = await overHttp(route, params, query);
      expect(http.status, `${route} over HTTP`).toBe(200);
      expect(await inProcess(route, params, query), route).toStrictEqual(http);
    }
  });

  it("reads a researcher's profile and records as the API does", async () => {
    const { data } = (await overHttp("/v1/leaderboard/:type", { type: "all-time" })).body as {
      data: { uuid: string }[];
    };
    const uuid = data[0]?.uuid;
    if (!uuid) return expect(data).toEqual([]);
    for (const route of ["/v1/researchers/:uuid", "/v1/researchers/:uuid/vulnerabilities"] as const) {
      expect(await inProcess(route, { uuid })).toStrictEqual(await overHttp(route, { uuid }));
    }
  });

  it("fails with the API's status and message: unknown records, unknown routes' params, invalid queries", async () => {
    const cases: [PageReadRoute, Record<string, string>, PageReadQuery?][] = [
      ["/v1/vulnerabilities/:id", { id: "no-such-record" }],
      [
        "/v1/products/:platform/:kind/:slug",
        { platform: "wordpress", kind: "plugin", slug: "no-such-plugin-x" },
      ],
      ["/products/:id/vulnerabilities", { id: "not-a-number" }],
      ["/v1/leaderboard/:type", { type: "weekly" }],
      ["/v1/statistics/:platform/:timeframe", { platform: "joomla", timeframe: "all-time" }],
      // Text that can never be stored: refused at the API's door, in-process too (e2e hostile-input).
      ["/v1/products/:platform/:kind/:slug", { platform: "wordpress", kind: "plugin", slug: "\u0000" }],
      ["/v1/vulnerabilities/:id", { id: "a\u0000b" }],
      ["/v1/vulnerabilities", {}, { q: "xss\u0000" }],
    ];
    for (const [route, params, query] of cases) {
      const http = await overHttp(route, params, query);
      expect(http.status, route).toBeGreaterThanOrEqual(400);
      expect(await inProcess(route, params, query), route).toStrictEqual(http);
    }
    // A query the schema refuses: the same status; the field names its part.
    const http = await overHttp("/v1/vulnerabilities", {}, { per_page: 100_000 });
    const local = await inProcess("/v1/vulnerabilities", {}, { per_page: 100_000 });
    expect(http.status).toBe(422);
    expect(local.status).toBe(422);
    expect(Object.keys((local.body as { errors: object }).errors)).toEqual(["per_page"]);
  });

  it("reads the visitor's own account with their credentials, as GET /api/user answers them", async () => {
    const { secret } = await createSessionSecret(harness.database, await createStaffUser(harness.database));
    const cookie = `XSRF-TOKEN=x; pressguard_session=${secret}`;
    const http = await harness.app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
    expect(http.statusCode).toBe(200);
    expect(await harness.app.pageRead("/user", {}, {}, { cookie })).toStrictEqual(http.json());
    // Anonymous, a cookie without a session, an unknown session, an unusable or dead token: refused alike.
    for (const visitor of [
      {},
      { cookie: "XSRF-TOKEN=x" },
      { cookie: "pressguard_session=nope" },
      { bearer: `${API_KEY_PREFIX}dead` },
    ]) {
      const headers = {
        ...(visitor.cookie && { cookie: visitor.cookie }),
        ...(visitor.bearer && { authorization: `Bearer ${visitor.bearer}` }),
      };
      const answer = await harness.app.inject({ method: "GET", url: "/api/user", headers });
      await expect(harness.app.pageRead("/user", {}, {}, visitor), JSON.stringify(visitor)).rejects.toEqual({
        kind: "page-read-failure",
        status: answer.statusCode,
        message: answer.json().message,
      });
      expect(answer.statusCode).toBe(401);
    }
  });
});
