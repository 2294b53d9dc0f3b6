import { afterEach, beforeEach, expect, vi } from "vitest";

// STYLE.md: a console.error during a test fails it. A test that expects one spies on it itself.
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = consoleError.getMockImplementation() ? [] : consoleError.mock.calls;
  consoleError.mockRestore();
  expect(calls, "console.error was called during the test").toEqual([]);
});
