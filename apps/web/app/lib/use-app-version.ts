import { useEffect } from "react";
import { useLocation } from "react-router";
import {
  createVersionWatcher,
  decideReloadOnNavigationError,
  RELOAD_MARKER_KEY,
  VERSION_POLL_INTERVAL_MS,
  type VersionWatcher,
} from "./app-version.ts";

/** One watcher per page load, shared by the root (which polls) and the error screens (which act). */
let watcher: VersionWatcher | null = null;

/** Polls `/builds/latest.json` every minute and when the window regains focus (spec §4, §7). */
export function useAppVersionWatch(buildId: string): void {
  useEffect(() => {
    if (import.meta.env.DEV) return;
    const current = createVersionWatcher(buildId);
    watcher = current;
    const check = () => {
      void current.check();
    };
    const interval = setInterval(check, VERSION_POLL_INTERVAL_MS);
    window.addEventListener("focus", check);
    // A route chunk of the old build that no longer exists: load the page of the new build.
    const onPreloadError = (event: Event) => {
      if (reloadForNewVersion(window.location.href)) event.preventDefault();
    };
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      clearInterval(interval);
      window.removeEventListener("focus", check);
      window.removeEventListener("vite:preloadError", onPreloadError);
      if (watcher === current) watcher = null;
    };
  }, [buildId]);
}

/** A full page load of `targetUrl` when a newer build is known; returns whether it happens. */
function reloadForNewVersion(targetUrl: string): boolean {
  const decision = decideReloadOnNavigationError({
    newBuildId: watcher?.newBuildId() ?? null,
    targetUrl,
    previousMarker: readMarker(),
  });
  if (!decision.reload) return false;
  writeMarker(decision.marker);
  window.location.assign(targetUrl);
  return true;
}

/** Used by the error screens: an error after a newer build appeared reloads the target page. */
export function useReloadOnNewVersion(error: unknown): void {
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    if (error !== undefined) reloadForNewVersion(`${pathname}${search}${hash}`);
  }, [error, pathname, search, hash]);
}

function readMarker(): string | null {
  try {
    return sessionStorage.getItem(RELOAD_MARKER_KEY);
  } catch {
    return null;
  }
}

function writeMarker(marker: string): void {
  try {
    sessionStorage.setItem(RELOAD_MARKER_KEY, marker);
  } catch {
    // Storage can be unavailable (private mode); the marker only prevents a second reload.
  }
}
