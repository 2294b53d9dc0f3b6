import type { LatestBuild } from "./latest-build.ts";

/**
 * New-version detection (spec §4, §7): the browser polls `/builds/latest.json` and compares its id
 * with the build it was served. Once a newer build exists, the next navigation error (a route
 * error boundary, or a route module that fails to load because its old chunk is gone) does a full
 * page load of the target URL, which fetches the new build.
 */

export const LATEST_BUILD_PATH = "/builds/latest.json";
export const VERSION_POLL_INTERVAL_MS = 60_000;
/** Remembers the last forced load, so that an error the new build also shows cannot loop. */
export const RELOAD_MARKER_KEY = "pressguard.version-reload";

export type { LatestBuild };

export function isNewBuild(currentBuildId: string, latest: LatestBuild | null): boolean {
  return latest !== null && latest.id !== currentBuildId;
}

export interface ReloadDecisionInput {
  /** The id of the newer build, or null while none has been seen. */
  newBuildId: string | null;
  /** Where the failed navigation was going. */
  targetUrl: string;
  /** The marker of the previous forced load in this tab, if any. */
  previousMarker: string | null;
}

/** Whether a navigation error should become a full page load, and the marker to remember. */
export function decideReloadOnNavigationError(input: ReloadDecisionInput): {
  reload: boolean;
  marker: string;
} {
  const marker = `${input.newBuildId ?? ""} ${input.targetUrl}`;
  if (input.newBuildId === null) return { reload: false, marker };
  return { reload: marker !== input.previousMarker, marker };
}

/** Fetches the latest build descriptor; null when it cannot be read (never throws). */
export async function fetchLatestBuild(
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<LatestBuild | null> {
  try {
    const response = await fetchImpl(LATEST_BUILD_PATH, {
      cache: "no-store",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return null;
    // The schema is fetched with the first poll, a minute after the page loaded (issue 35).
    const [body, { LatestBuild }] = await Promise.all([response.json(), import("./latest-build.ts")]);
    const parsed = LatestBuild.safeParse(body);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface VersionWatcher {
  /** Polls once; resolves to whether a newer build is known afterwards. */
  check(): Promise<boolean>;
  /** The newer build's id, or null. */
  newBuildId(): string | null;
}

export function createVersionWatcher(
  currentBuildId: string,
  fetchLatest: () => Promise<LatestBuild | null> = () => fetchLatestBuild(),
): VersionWatcher {
  let newer: string | null = null;
  let inFlight: Promise<boolean> | null = null;
  return {
    check() {
      inFlight ??= fetchLatest()
        .then((latest) => {
          if (latest && isNewBuild(currentBuildId, latest)) newer = latest.id;
          return newer !== null;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    newBuildId: () => newer,
  };
}
