/**
 * Spec §2, §4: the vendor activation modal's flag, kept in the browser's localStorage. It defaults to
 * shown, the root redirect switches it on for vendors, and an activation sets it to hidden.
 */
export const ACTIVATION_MODAL_KEY = "pressguard.activation-modal";

type FlagStorage = Pick<Storage, "getItem" | "setItem">;

function browserStorage(): FlagStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage switched off (private mode, policy): the flag keeps its default.
    return null;
  }
}

export function isActivationModalShown(storage: FlagStorage | null = browserStorage()): boolean {
  return storage?.getItem(ACTIVATION_MODAL_KEY) !== "hidden";
}

export function setActivationModalShown(shown: boolean, storage: FlagStorage | null = browserStorage()) {
  try {
    storage?.setItem(ACTIVATION_MODAL_KEY, shown ? "shown" : "hidden");
  } catch {
    // A full or refused storage only loses the preference.
  }
}
