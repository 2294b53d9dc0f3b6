import { describe, expect, it, vi } from "vitest";
import {
  createVersionWatcher,
  decideReloadOnNavigationError,
  fetchLatestBuild,
  isNewBuild,
  LATEST_BUILD_PATH,
  type LatestBuild,
  VERSION_POLL_INTERVAL_MS,
} from "./app-version.ts";

const build = (id: string): LatestBuild => ({ id, timestamp: 1_700_000_000 });

describe("isNewBuild", () => {
  it("is true only when the latest build differs from the one served", () => {
    expect(isNewBuild("a", build("b"))).toBe(true);
    expect(isNewBuild("a", build("a"))).toBe(false);
    expect(isNewBuild("a", null)).toBe(false);
  });
});

describe("decideReloadOnNavigationError", () => {
  it("does nothing while no newer build is known", () => {
    expect(
      decideReloadOnNavigationError({ newBuildId: null, targetUrl: "/database", previousMarker: null })
        .reload,
    ).toBe(false);
  });

  it("reloads the target after a newer build appeared", () => {
    const decision = decideReloadOnNavigationError({
      newBuildId: "b2",
      targetUrl: "/vdp/programs/all",
      previousMarker: null,
    });
    expect(decision).toEqual({ reload: true, marker: "b2 /vdp/programs/all" });
  });

  it("does not reload the same target twice for the same build (no loop)", () => {
    const first = decideReloadOnNavigationError({ newBuildId: "b2", targetUrl: "/x", previousMarker: null });
    const again = decideReloadOnNavigationError({
      newBuildId: "b2",
      targetUrl: "/x",
      previousMarker: first.marker,
    });
    expect(again.reload).toBe(false);
    expect(
      decideReloadOnNavigationError({ newBuildId: "b2", targetUrl: "/y", previousMarker: first.marker })
        .reload,
    ).toBe(true);
    expect(
      decideReloadOnNavigationError({ newBuildId: "b3", targetUrl: "/x", previousMarker: first.marker })
        .reload,
    ).toBe(true);
  });
});

describe("fetchLatestBuild", () => {
  it("reads /builds/latest.json without the HTTP cache", async () => {
    const fetch = vi.fn(async () => Response.json(build("b9")));
    await expect(fetchLatestBuild(fetch)).resolves.toEqual(build("b9"));
    expect(fetch).toHaveBeenCalledWith(LATEST_BUILD_PATH, expect.objectContaining({ cache: "no-store" }));
  });

  it("gives null for a failed, malformed or unreachable answer", async () => {
    await expect(fetchLatestBuild(async () => new Response("", { status: 404 }))).resolves.toBeNull();
    await expect(fetchLatestBuild(async () => Response.json({ id: 3 }))).resolves.toBeNull();
    await expect(
      fetchLatestBuild(async () => {
        throw new TypeError("offline");
      }),
    ).resolves.toBeNull();
  });
});

describe("createVersionWatcher", () => {
  it("polls every minute", () => {
    expect(VERSION_POLL_INTERVAL_MS).toBe(60_000);
  });

  it("remembers a newer build once seen, even if a later poll fails", async () => {
    const answers = [build("b1"), build("b2"), null];
    const watcher = createVersionWatcher("b1", async () => answers.shift() ?? null);
    await expect(watcher.check()).resolves.toBe(false);
    expect(watcher.newBuildId()).toBeNull();
    await expect(watcher.check()).resolves.toBe(true);
    await expect(watcher.check()).resolves.toBe(true);
    expect(watcher.newBuildId()).toBe("b2");
  });

  it("shares one request between overlapping checks (interval and focus together)", async () => {
    const fetchLatest = vi.fn(async () => build("b2"));
    const watcher = createVersionWatcher("b1", fetchLatest);
    await Promise.all([watcher.check(), watcher.check()]);
    expect(fetchLatest).toHaveBeenCalledTimes(1);
  });
});
