import type { WatchlistDetail, WatchlistInventoryResult } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS, WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * Issue 35: `PUT /api/watchlists/{id}/inventory` takes an inventory as a script has it — the output
 * of `wp plugin list --format=json` piped to curl, a composer.lock, a `slug version` list — replaces
 * that kind's entries, and says what it matched, what it did not know and why. A body it cannot read
 * changes nothing.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
let script: ApiCaller;
let session: ApiCaller;
beforeAll(async () => {
  harness = await createTestApp();
  // custom-facebook-feed and web-directory-free are known; anything else is not.
  await importVulnerabilities(
    harness.database,
    [SMASH_BALLOON_XSS, WEB_DIRECTORY_SQLI].map((r) => JSON.stringify(r)),
  );
  const owner = await registerUser(harness.app);
  session = owner.caller;
  const created = await session.post("/api/api-keys", {
    name: "cron",
    scopes: ["watchlists"],
    expires_in_days: 30,
  });
  expect(created.statusCode, created.body).toBe(201);
  script = createApiCaller(harness.app);
  script.setBearer(created.json<{ key: string }>().key);
});
afterAll(() => harness?.close());

const WP_PLUGIN_LIST = JSON.stringify([
  {
    name: "custom-facebook-feed",
    status: "active",
    update: "available",
    version: "4.1.0",
    auto_update: "off",
  },
  { name: "my-private-plugin", status: "active", update: "none", version: "1.0.0", auto_update: "off" },
  { name: "object-cache", status: "dropin", update: "none", version: "", auto_update: "off" },
]);

async function watchlist(entries: unknown[] = []) {
  const made = await session.post("/api/watchlists", { name: `site ${Math.random()}`, entries });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<WatchlistDetail>().id;
}

/** As curl --data-binary sends it: its default form content type, the bytes unchanged. */
const put = (id: string, body: string, query = "", type = "application/x-www-form-urlencoded") =>
  script.put(`/api/watchlists/${id}/inventory${query}`, body, { headers: { "content-type": type } });

const entriesOf = async (id: string) =>
  (await script.get(`/api/watchlists/${id}`))
    .json<WatchlistDetail>()
    .items.map((item) => `${item.kind}:${item.slug}@${item.version}`)
    .sort();

describe("PUT /api/watchlists/{id}/inventory", () => {
  it("replaces the plugins from `wp plugin list --format=json`, keeping the themes and core", async () => {
    const id = await watchlist([
      { kind: "plugin", slug: "old-plugin", version: "1.0" },
      { kind: "theme", slug: "astra", version: "4.0.0" },
      { kind: "core", slug: "wordpress", version: "6.4.1" },
    ]);
    const answer = await put(id, WP_PLUGIN_LIST, "?kind=plugin");
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json<WatchlistInventoryResult>();
    expect(result.inventory).toEqual({
      format: "wp-cli",
      replaced: ["plugin"],
      read: 2,
      matched: 1,
      unknown: [{ kind: "plugin", slug: "my-private-plugin", version: "1.0.0" }],
      problems: ["object-cache is a drop-in, not a directory plugin: skipped."],
    });
    expect(await entriesOf(id)).toEqual([
      "core:wordpress@6.4.1",
      "plugin:custom-facebook-feed@4.1.0",
      "plugin:my-private-plugin@1.0.0",
      "theme:astra@4.0.0",
    ]);
    // The known plugin's vulnerabilities are there, as on the page.
    const feed = result.watchlist.items.find((item) => item.slug === "custom-facebook-feed");
    expect(feed?.known).toBe(true);
    expect(feed?.vulnerabilities.length).toBeGreaterThan(0);
  });

  it("reads a theme list, a composer.lock and plain lines, under any content type", async () => {
    const id = await watchlist([{ kind: "plugin", slug: "kept-plugin", version: "2.0" }]);
    const themes = JSON.stringify([{ name: "astra", status: "active", update: "none", version: "4.6.1" }]);
    expect((await put(id, themes, "?kind=theme", "application/json")).statusCode).toBe(200);
    expect(await entriesOf(id)).toEqual(["plugin:kept-plugin@2.0", "theme:astra@4.6.1"]);

    const lock = JSON.stringify({
      packages: [
        { name: "wpackagist-plugin/web-directory-free", version: "1.6.9" },
        { name: "wpackagist-theme/twentytwentyfour", version: "1.0" },
        { name: "roots/wordpress", version: "6.5.2" },
        { name: "monolog/monolog", version: "3.5.0" },
      ],
    });
    const composer = (await put(id, lock)).json<WatchlistInventoryResult>();
    expect(composer.inventory).toMatchObject({
      format: "composer",
      replaced: ["plugin", "theme", "core"],
      read: 3,
    });
    expect(composer.inventory.problems).toEqual([
      "1 other Composer package was ignored (not WordPress plugins, themes or core).",
    ]);
    expect(await entriesOf(id)).toEqual([
      "core:wordpress@6.5.2",
      "plugin:web-directory-free@1.6.9",
      "theme:twentytwentyfour@1.0",
    ]);

    const plain = (
      await put(
        id,
        "# from a host's panel\ncustom-facebook-feed 4.1.5\nweb-directory-free,1.7.0\nnot a line\n",
        "?kind=plugin",
        "text/plain",
      )
    ).json<WatchlistInventoryResult>();
    expect(plain.inventory).toMatchObject({ format: "plain", read: 2, matched: 2, unknown: [] });
    expect(plain.inventory.problems).toEqual(['Line 4 is not "slug version": skipped.']);
    expect(await entriesOf(id)).toEqual([
      "core:wordpress@6.5.2",
      "plugin:custom-facebook-feed@4.1.5",
      "plugin:web-directory-free@1.7.0",
      "theme:twentytwentyfour@1.0",
    ]);
  });

  it("changes nothing and says why for a body it cannot read, a missing kind, too many entries or a huge body", async () => {
    const id = await watchlist([{ kind: "plugin", slug: "kept-plugin", version: "2.0" }]);
    const refusals: [string, string, number, string][] = [
      ["", "?kind=plugin", 422, "The body is empty: send the inventory itself."],
      [WP_PLUGIN_LIST, "", 422, "Say what the list holds: add ?kind=plugin or ?kind=theme"],
      [
        '{"plugins": []}',
        "?kind=plugin",
        422,
        "This JSON is neither a list from `wp plugin list --format=json`",
      ],
      ["<html>not a list</html>", "?kind=plugin", 422, "This is neither JSON nor a plain list"],
      [WP_PLUGIN_LIST, "?kind=widget", 422, "The given data was invalid."],
      [
        Array.from({ length: 501 }, (_, n) => `plugin-${n} 1.0`).join("\n"),
        "?kind=plugin",
        422,
        "A watchlist holds at most 500 entries.",
      ],
      [`${"x".repeat(3 * 1024 * 1024)}`, "?kind=plugin", 413, ""],
    ];
    for (const [body, query, status, message] of refusals) {
      const answer = await put(id, body, query);
      expect(answer.statusCode, `${query} ${body.slice(0, 40)}: ${answer.body.slice(0, 200)}`).toBe(status);
      if (message) expect(answer.json<{ message: string }>().message).toContain(message);
    }
    expect(await entriesOf(id)).toEqual(["plugin:kept-plugin@2.0"]);
  });

  it("is the owner's only: another account's key gets 404, a key of another scope 403, nobody 401", async () => {
    const id = await watchlist();
    const other = await registerUser(harness.app);
    const theirs = await other.caller.post("/api/api-keys", {
      name: "x",
      scopes: ["watchlists"],
      expires_in_days: 30,
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const stranger = createApiCaller(harness.app);
    stranger.setBearer(theirs.json<{ key: string }>().key);
    expect(
      (await stranger.put(`/api/watchlists/${id}/inventory?kind=plugin`, WP_PLUGIN_LIST)).statusCode,
    ).toBe(404);
    const reader = await session.post("/api/api-keys", {
      name: "read only",
      scopes: ["read"],
      expires_in_days: 30,
    });
    const readOnly = createApiCaller(harness.app);
    readOnly.setBearer(reader.json<{ key: string }>().key);
    expect(
      (await readOnly.put(`/api/watchlists/${id}/inventory?kind=plugin`, WP_PLUGIN_LIST)).statusCode,
    ).toBe(403);
    const nobody = createApiCaller(harness.app);
    expect((await nobody.put(`/api/watchlists/${id}/inventory?kind=plugin`, WP_PLUGIN_LIST)).statusCode).toBe(
      401,
    );
    // A signed-in browser (with its CSRF token) may send one too.
    expect(
      (
        await session.put(`/api/watchlists/${id}/inventory?kind=plugin`, WP_PLUGIN_LIST, {
          headers: { "content-type": "application/json" },
        })
      ).statusCode,
    ).toBe(200);
  });
});
