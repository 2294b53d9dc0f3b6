import { describe, expect, it, vi } from "vitest";

const toast = vi.hoisted(() => ({ success: vi.fn(), info: vi.fn(), error: vi.fn() }));
vi.mock("../../ui/toast.ts", () => ({ toast }));

const { toastActivation } = await import("./use-program-mutations.ts");

describe("toastActivation (spec §7: status and message as a toast)", () => {
  it("shows a success as a success toast", () => {
    toastActivation({ status: "success", message: "The program is active." });
    expect(toast.success).toHaveBeenCalledWith("The program is active.");
  });

  it("shows a claim waiting for staff as an information toast", () => {
    toastActivation({ status: "pending", message: "Your claim is under review." });
    expect(toast.info).toHaveBeenCalledWith("Your claim is under review.");
  });

  it("shows an error body as an error toast", () => {
    toastActivation({ status: "error", message: "Verify your e-mail address first." });
    expect(toast.error).toHaveBeenCalledWith("Verify your e-mail address first.");
  });
});
