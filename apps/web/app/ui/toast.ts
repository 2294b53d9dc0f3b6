import { useSyncExternalStore } from "react";

/**
 * The toasts of the web app (spec §7, §9), with react-toastify fetched at the first one (issue 35:
 * the library and its styles are 10 KB of gzipped JavaScript that most page views never show).
 * `toast.success(message)` and its kin call the library's own once it has loaded; the root mounts
 * the library's container at that moment (`useToastsWanted`), and the library shows the toasts it
 * was given before its container existed as soon as the container mounts.
 */
type ToastKind = "success" | "error" | "info";

let wanted = false;
const listeners = new Set<() => void>();

/** The library module (the bundler fetches it once; the container imports it too). */
const loadToastify = () => import("react-toastify");

function show(kind: ToastKind, message: string): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void loadToastify().then(({ toast: library }) => library[kind](message));
}

export const toast = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a toast was asked for in this page view: then the container is mounted. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
}
