import { afterEach, describe, expect, it, vi } from "vitest";
import { toast } from "../../ui/toast.ts";
import { toastActivation } from "./use-program-mutations.ts";

// Spies on the one toast object rather than a module mock: the unit run shares its module graph
// between test files (vitest.config.ts, `isolate: false`), so a mock is lost when another file
// (routes.test.ts, which loads every route) loaded this module first.
afterEach(() => {
  vi.restoreAllMocks();
});

describe("toastActivation (spec §7: status and message as a toast)", () => {
  it("shows a success as a success toast", () => {
    const success = vi.spyOn(toast, "success").mockImplementation(() => undefined);
    toastActivation({ status: "success", message: "The program is active." });
    expect(success).toHaveBeenCalledWith("The program is active.");
  });

  it("shows a claim waiting for staff as an information toast", () => {
    const info = vi.spyOn(toast, "info").mockImplementation(() => undefined);
    toastActivation({ status: "pending", message: "Your claim is under review." });
    expect(info).toHaveBeenCalledWith("Your claim is under review.");
  });

  it("shows an error body as an error toast", () => {
    const error = vi.spyOn(toast, "error").mockImplementation(() => undefined);
    toastActivation({ status: "error", message: "Verify your e-mail address first." });
    expect(error).toHaveBeenCalledWith("Verify your e-mail address first.");
  });
});
