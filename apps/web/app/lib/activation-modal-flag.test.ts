import { describe, expect, it } from "vitest";
import {
  ACTIVATION_MODAL_KEY,
  isActivationModalShown,
  setActivationModalShown,
} from "./activation-modal-flag.ts";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe("activation modal flag (spec §4)", () => {
  it("defaults to shown", () => {
    expect(isActivationModalShown(memoryStorage())).toBe(true);
  });

  it("is hidden after an activation and on again when switched on", () => {
    const storage = memoryStorage();
    setActivationModalShown(false, storage);
    expect(storage.values.get(ACTIVATION_MODAL_KEY)).toBe("hidden");
    expect(isActivationModalShown(storage)).toBe(false);
    setActivationModalShown(true, storage);
    expect(isActivationModalShown(storage)).toBe(true);
  });

  it("stays shown without storage (server rendering)", () => {
    expect(isActivationModalShown(null)).toBe(true);
  });
});
