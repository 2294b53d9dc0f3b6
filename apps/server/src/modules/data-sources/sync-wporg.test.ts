import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import { createDataSourceService } from "./service.ts";
import { holdSchedule, productNamed, recordWithCve } from "./source-test-kit.ts";
import { createWporgSource, directoryDateText } from "./sync-wporg.ts";

/**
 * The WordPress.org directory source against a stand-in API on loopback: the directory's version,
 * installs, last update and closure land on the products Pressguard knows, `latest` and the inferred
 * fixes follow the new version, an unknown slug is counted, a run is capped and the next resumes, and
 * a failing host changes nothing.
 */

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const PLUGIN_INFO = fixture("wporg-plugin-info.json");
const PLUGIN_CLOSED = fixture("wporg-plugin-closed.json");
const PLUGIN_NOT_FOUND = fixture("wporg-plugin-not-found.json");
const THEME_INFO = fixture("wporg-theme-info.json");

interface Product {
  id: number;
  version: string | null;
  active_installs: number | null;
  directory_updated: string | null;
  closed_at: Date | null;
  directory_checked_at: Date | null;
}

describe("WordPress.org directory sync", () => {
  /** What the stand-in answers per `kind/slug`: [status, body]. */
  const answers = new Map<string, [number, string]>();
  let failAll: number | null = null;
  const asked: string[] = [];
  let server: Server;
  let apiUrl: string;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let staff: Awaited<ReturnType<typeof createStaffCaller>>;
  const ids: Record<string, number> = {};
  let importerRecord: string;

  const syncNow = () => staff.post("/api/staff/data-sources/wporg/sync");
  const product = async (id: number) =>
    (
      await harness.database.sql.query<Product>(
        `select id, version, active_installs, directory_updated, closed_at, directory_checked_at
         from products where id = $1`,
        [id],
      )
    ).rows[0]!;
  /** The public columns of every product: what "nothing changed" compares. */
  const snapshot = async () =>
    (
      await harness.database.sql.query<{ rows: string }>(
        `select string_agg(concat_ws('|', id, version, active_installs, directory_updated, closed_at), ','
           order by id) as rows from products`,
      )
    ).rows[0]!.rows;
  const version = () => readDataVersion(harness.database.sql);
  const serviceWith = (options: { maxPerRun?: number; recheckSeconds?: number }) =>
    createDataSourceService({
      database: harness.database,
      sources: [createWporgSource({ apiUrl, ...options })],
      intervalSeconds: 3600,
    });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const kind = url.pathname.startsWith("/themes/") ? "theme" : "plugin";
      const slug = url.searchParams.get("request[slug]") ?? "";
      asked.push(`${kind}/${slug}`);
      if (failAll !== null) {
        response.writeHead(failAll, { "content-type": "text/html" }).end("<html>Bad Gateway</html>");
        return;
      }
      const [status, body] = answers.get(`${kind}/${slug}`) ?? [404, PLUGIN_NOT_FOUND];
      response.writeHead(status, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    answers.set("plugin/wordpress-importer", [200, PLUGIN_INFO]);
    answers.set("plugin/no-longer-in-directory", [404, PLUGIN_CLOSED]);
    answers.set("theme/twentytwentyfive", [200, THEME_INFO]);

    harness = await createTestApp({ WPORG_API_URL: apiUrl });
    await holdSchedule(harness.database.sql, "wporg");
    staff = await createStaffCaller(harness.app, harness.database);
    const { sql } = harness.database;
    ids.importer = await productNamed(sql, "wordpress-importer", { version: "0.9.0" });
    ids.closed = await productNamed(sql, "no-longer-in-directory", { version: "1.2" });
    ids.theme = await productNamed(sql, "twentytwentyfive", { kind: "theme" });
    ids.unknown = await productNamed(sql, "does-not-exist");
    // Never asked: a premium product, an imported premium slug, WordPress itself.
    ids.premium = await productNamed(sql, "acme-pro", { plan: "premium" });
    ids.capitals = await productNamed(sql, "Avada", { kind: "theme" });
    ids.core = await productNamed(sql, "wordpress", { kind: "core", version: "6.8" });
    // Unfixed, affecting up to 0.9.2: fixed in a later version once the directory says 0.9.4.
    importerRecord = await recordWithCve(sql, ids.importer, null, { prefix: "<=", version: "0.9.2" });
  });

  afterAll(async () => {
    await harness?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("writes the directory's version, installs, last update and closure", async () => {
    const before = await version();
    const response = await syncNow();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      source: "wporg",
      outcome: "synced",
      counts: { new: 0, changed: 2, unchanged: 0, withdrawn: 1, rejected: 1 },
      error: null,
    });
    expect(asked.sort()).toEqual([
      "plugin/does-not-exist",
      "plugin/no-longer-in-directory",
      "plugin/wordpress-importer",
      "theme/twentytwentyfive",
    ]);
    expect(await product(ids.importer!)).toMatchObject({
      version: "0.9.4",
      active_installs: 2_000_000,
      directory_updated: "2025-09-26 9:07pm GMT",
      closed_at: null,
      directory_checked_at: expect.any(Date),
    });
    expect(await product(ids.theme!)).toMatchObject({
      version: "1.3",
      active_installs: 1_000_000,
      directory_updated: "2025-08-05 3:51pm GMT",
      closed_at: null,
    });
    const closed = await product(ids.closed!);
    expect(closed).toMatchObject({ version: "1.2", active_installs: null });
    expect(closed.closed_at?.toISOString()).toBe("2018-10-02T00:00:00.000Z");
    // Not in the directory: counted, checked, nothing else.
    expect(await product(ids.unknown!)).toMatchObject({
      version: null,
      closed_at: null,
      directory_checked_at: expect.any(Date),
    });
    for (const id of [ids.premium!, ids.capitals!, ids.core!])
      expect((await product(id)).directory_checked_at).toBeNull();
    expect(await version()).not.toBe(before);
  });

  it("makes `latest` and the inferred fixes follow the directory's version", async () => {
    const checked = await harness.app.inject({
      method: "POST",
      url: "/api/v1/check",
      payload: { items: [{ kind: "plugin", slug: "wordpress-importer", version: "latest" }] },
    });
    expect(checked.json().results[0]).toMatchObject({ known: true, checked_version: "0.9.4" });
    const { rows } = await harness.database.sql.query<{ inferred_fixed_from: string | null }>(
      "select inferred_fixed_from from vulnerabilities where id = $1",
      [importerRecord],
    );
    expect(rows[0]!.inferred_fixed_from).toBe("0.9.4");
  });

  it("asks nothing about products checked within the day", async () => {
    const requests = asked.length;
    const dataVersion = await version();
    expect((await syncNow()).json()).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 0, unchanged: 0, withdrawn: 0, rejected: 0 },
    });
    expect(asked.length).toBe(requests);
    expect(await version()).toBe(dataVersion);
  });

  it("writes nothing public when the directory says the same again", async () => {
    const before = await snapshot();
    const dataVersion = await version();
    const outcome = await serviceWith({ recheckSeconds: 0 }).syncNow("wporg");
    expect(outcome).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 0, unchanged: 3, withdrawn: 0, rejected: 1 },
    });
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
  });

  it("clears the closure of a product open again, and caps a run that the next one resumes", async () => {
    answers.set("plugin/no-longer-in-directory", [
      200,
      JSON.stringify({ ...JSON.parse(PLUGIN_INFO), slug: "no-longer-in-directory", version: "1.3" }),
    ]);
    await harness.database.sql.query("update products set directory_checked_at = null");
    const capped = serviceWith({ maxPerRun: 2, recheckSeconds: 0 });
    const requests = asked.length;
    expect(await capped.syncNow("wporg")).toMatchObject({ outcome: "synced" });
    expect(asked.length).toBe(requests + 2);
    // The two products asked were those never checked, in id order; the next run goes on from there.
    expect(asked.slice(-2).sort()).toEqual(["plugin/no-longer-in-directory", "plugin/wordpress-importer"]);
    expect(await product(ids.closed!)).toMatchObject({ version: "1.3", closed_at: null });
    await capped.syncNow("wporg");
    expect(asked.slice(-2).sort()).toEqual(["plugin/does-not-exist", "theme/twentytwentyfive"]);
  });

  it("changes nothing when WordPress.org fails, and says so", async () => {
    await harness.database.sql.query("update products set directory_checked_at = null");
    answers.set("plugin/wordpress-importer", [
      200,
      JSON.stringify({ ...JSON.parse(PLUGIN_INFO), version: "1.0" }),
    ]);
    const before = await snapshot();
    const dataVersion = await version();
    failAll = 502;
    try {
      const response = (await syncNow()).json();
      expect(response).toMatchObject({ outcome: "failed" });
      expect(response.error).toMatch(/^WordPress\.org answered HTTP 502 with a body that is not JSON/);
      const status = (await staff.get("/api/staff/data-sources"))
        .json<{
          data: { source: string; last_error: string | null }[];
        }>()
        .data.find((source) => source.source === "wporg")!;
      expect(status.last_error).toBe(response.error);
    } finally {
      failAll = null;
    }
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
    expect((await product(ids.importer!)).directory_checked_at).toBeNull();
  });
});

describe("directoryDateText", () => {
  it("spells a time as the directory does", () => {
    expect(directoryDateText(new Date("2024-05-30T15:12:00Z"))).toBe("2024-05-30 3:12pm GMT");
    expect(directoryDateText(new Date("2024-05-30T00:05:00Z"))).toBe("2024-05-30 12:05am GMT");
    expect(directoryDateText(new Date("2024-05-30T12:00:00Z"))).toBe("2024-05-30 12:00pm GMT");
  });
});
