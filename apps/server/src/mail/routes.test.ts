import { afterEach, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";

let harness: Awaited<ReturnType<typeof createTestApp>> | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the development mailbox", () => {
  it("is closed unless DEV_MAILBOX=on, even in a test setting without SMTP (issue 15)", async () => {
    harness = await createTestApp();
    const answer = await harness.app.inject({ method: "GET", url: "/api/dev/mail" });
    expect(answer.statusCode).toBe(404);
  });

  it("lists the stored mail when switched on", async () => {
    harness = await createTestApp({ DEV_MAILBOX: "on" });
    const answer = await harness.app.inject({ method: "GET", url: "/api/dev/mail" });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ data: [] });
  });
});
