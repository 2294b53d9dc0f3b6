import { describe, expect, it } from "vitest";
import { redactUrl } from "./log-redaction.ts";

describe("redactUrl", () => {
  it.each([
    ["/api/reports/abc?token=s3cret", "/api/reports/abc?token=%5Bredacted%5D"],
    [
      "/vdp/vulnerabilities/x/preview?token=a.b.c&tab=1",
      "/vdp/vulnerabilities/x/preview?token=%5Bredacted%5D&tab=1",
    ],
    ["/api/magic-link/0b9c-uuid", "/api/magic-link/[redacted]"],
    ["/login/magic-link/0b9c-uuid?redirect=/x", "/login/magic-link/[redacted]?redirect=%2Fx"],
    ["/api/email/verify/abcdef", "/api/email/verify/[redacted]"],
    ["/reset-password/abcdef", "/reset-password/[redacted]"],
  ])("hides the secret in %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
    expect(redactUrl(url)).not.toMatch(/s3cret|0b9c|abcdef|a\.b\.c/);
  });

  it("leaves other URLs alone", () => {
    expect(redactUrl("/database?q=contact+form&page=2")).toBe("/database?q=contact+form&page=2");
    expect(redactUrl("/api/user")).toBe("/api/user");
  });
});
