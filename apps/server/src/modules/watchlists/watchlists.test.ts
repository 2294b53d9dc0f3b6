import {
  MAX_WATCHLIST_ENTRIES,
  type WatchlistDetail,
  type WatchlistExposureReport,
  type WatchlistList,
} from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPE_MESSAGE } from "../../http/access.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createSeededTestApp } from "../../test/app.ts";

/**
 * Issue 20 (decision 031): watchlists of any signed-in user, read with the known vulnerabilities of
 * each installed version, on the bundled data; scripts use them with a `watchlists` API key.
 */
let harness: Awaited<ReturnType<typeof createSeededTestApp>>;
// The run's seeded database is imported by whichever test file asks first (minutes on a busy machine).
beforeAll(async () => {
  harness = await createSeededTestApp();
}, 400_000);
afterAll(() => harness?.close());

const SITE = [
  { kind: "plugin", slug: "Contact-Form-7", version: "5.3.1" },
  { kind: "plugin", slug: "my-private-plugin", version: "1.0.0" },
  { kind: "plugin", slug: "akismet", version: "99.0" },
  { kind: "core", slug: "wordpress", version: "6.4.1" },
];

async function create(caller: ApiCaller, body: unknown) {
  const created = await caller.post("/api/watchlists", body);
  expect(created.statusCode, created.body).toBe(201);
  return created.json<WatchlistDetail>();
}

describe("watchlists", () => {
  it("shows each entry with the known vulnerabilities of its installed version and what to update to", async () => {
    const { caller } = await registerUser(harness.app);
    const list = await create(caller, { name: "shop.example", entries: SITE });
    expect(list).toMatchObject({ name: "shop.example", entries: 4 });
    const [cf7, unknown, akismet, core] = list.items;
    expect(cf7).toMatchObject({ kind: "plugin", slug: "contact-form-7", version: "5.3.1", known: true });
    expect(cf7?.product_url).toMatch(/\/database\/wordpress\/plugin\/contact-form-7\/vulnerabilities\/vdp$/);
    expect(cf7?.vulnerabilities.length).toBeGreaterThan(0);
    // The highest fix is the update: 5.9.5 in the bundled data, where "<= 5.8.3" and "<= 5.9" have no
    // fixed_in but the current version 5.9.3 escapes them (inferred), and "<= 6.0.5" has no fix at all.
    expect(cf7?.update_to).toBe("5.9.5");
    // The check says which fixes it inferred: no fix listed, the current version outside the range.
    expect(
      cf7?.vulnerabilities.filter((vulnerability) => vulnerability.fixed_in_inferred === "5.9.3"),
    ).toHaveLength(2);
    expect(cf7?.unfixed).toBe(1);
    expect(unknown).toMatchObject({
      known: false,
      product_url: null,
      vulnerabilities: [],
      update_to: null,
      unfixed: 0,
    });
    expect(akismet).toMatchObject({ known: true, vulnerabilities: [], update_to: null });
    expect(core?.vulnerabilities.length).toBeGreaterThan(0);
    const exposed = list.items.filter((item) => item.vulnerabilities.length > 0);
    expect(list.exposed_entries).toBe(exposed.length);
    expect(list.vulnerabilities).toBe(exposed.reduce((sum, item) => sum + item.vulnerabilities.length, 0));

    // Editing a version moves the exposures with it; the list shows the counts.
    const updated = await caller.put(`/api/watchlists/${list.id}/entries`, {
      entries: [{ kind: "plugin", slug: "contact-form-7", version: cf7?.update_to }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<WatchlistDetail>()).toMatchObject({
      entries: 1,
      exposed_entries: 1,
      vulnerabilities: 1,
    });
    // 5.9.5 leaves only the vulnerability nobody has fixed.
    expect(updated.json<WatchlistDetail>().items[0]).toMatchObject({ update_to: null, unfixed: 1 });
    const listed = (await caller.get("/api/watchlists")).json<WatchlistList>();
    expect(listed.data).toEqual([expect.objectContaining({ id: list.id, entries: 1, exposed_entries: 1 })]);
  });

  it("keeps an entry named twice once, with its last version, and refuses what is not a version", async () => {
    const { caller } = await registerUser(harness.app);
    const list = await create(caller, {
      name: "twice",
      entries: [
        { kind: "plugin", slug: "elementor", version: "3.0.0" },
        { kind: "plugin", slug: "Elementor", version: "3.1.0" },
      ],
    });
    expect(list.items.map((item) => [item.slug, item.version])).toEqual([["elementor", "3.1.0"]]);
    const refused = await caller.post("/api/watchlists", {
      name: "bad",
      entries: [{ kind: "plugin", slug: "elementor", version: "newest" }],
    });
    expect(refused.statusCode).toBe(422);
    const tooMany = await caller.post("/api/watchlists", {
      name: "big",
      entries: Array.from({ length: MAX_WATCHLIST_ENTRIES + 1 }, (_, index) => ({
        kind: "plugin",
        slug: `p${index}`,
        version: "1.0",
      })),
    });
    expect(tooMany.statusCode).toBe(422);
  });

  it("is its owner's only: another user and anonymous callers cannot read, change or delete it", async () => {
    const owner = await registerUser(harness.app);
    const other = await registerUser(harness.app, { role: "vendor" });
    const list = await create(owner.caller, { name: "private", entries: SITE.slice(0, 1) });
    for (const path of [`/api/watchlists/${list.id}`, "/api/watchlists/not-a-uuid"])
      expect((await other.caller.get(path)).statusCode).toBe(404);
    expect((await other.caller.patch(`/api/watchlists/${list.id}`, { name: "mine" })).statusCode).toBe(404);
    expect((await other.caller.put(`/api/watchlists/${list.id}/entries`, { entries: [] })).statusCode).toBe(
      404,
    );
    expect((await other.caller.delete(`/api/watchlists/${list.id}`)).statusCode).toBe(404);
    expect((await other.caller.get("/api/watchlists")).json<WatchlistList>().data).toEqual([]);
    expect((await createApiCaller(harness.app).get("/api/watchlists")).statusCode).toBe(401);

    const renamed = await owner.caller.patch(`/api/watchlists/${list.id}`, { name: "renamed.example" });
    expect(renamed.json<WatchlistDetail>().name).toBe("renamed.example");
    expect((await owner.caller.delete(`/api/watchlists/${list.id}`)).statusCode).toBe(204);
    expect((await owner.caller.get(`/api/watchlists/${list.id}`)).statusCode).toBe(404);
  });

  it("answers a script with a watchlists API key, and refuses a key without that scope", async () => {
    const { caller } = await registerUser(harness.app);
    const key = async (scopes: string[]) => {
      const created = await caller.post("/api/api-keys", {
        name: scopes.join(" "),
        scopes,
        expires_in_days: 30,
      });
      expect(created.statusCode, created.body).toBe(201);
      const script = createApiCaller(harness.app);
      script.setBearer(created.json<{ key: string }>().key);
      return script;
    };
    const script = await key(["watchlists"]);
    const made = await script.post(
      "/api/watchlists",
      { name: "from a script", entries: SITE },
      { csrf: false },
    );
    expect(made.statusCode, made.body).toBe(201);
    const report = await script.get("/api/watchlists/exposures");
    expect(report.statusCode).toBe(200);
    const answer = report.json<WatchlistExposureReport>();
    const [watched] = answer.watchlists;
    // Only the exposed entries: not the unknown plugin nor the clean Akismet.
    expect(watched?.items.map((item) => item.slug).sort()).toEqual(["contact-form-7", "wordpress"]);
    // Each record once, by id, for every entry it affects.
    const ids = watched?.items.flatMap((item) => item.vulnerability_ids) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    expect(Object.keys(answer.vulnerabilities).sort()).toEqual([...new Set(ids)].sort());

    const readOnly = await key(["read"]);
    const refused = await readOnly.get("/api/watchlists");
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(API_KEY_SCOPE_MESSAGE);
  });
});
