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

  it("hides an API key wherever it appears in the URL, keeping its prefix", () => {
    const key = "pgk_Abc-123_xyzSECRETvalue";
    const redacted = redactUrl(`/api/v1/vulnerabilities?q=x&api_key=${key}`);
    expect(redacted).not.toContain("SECRETvalue");
    expect(redacted).toBe("/api/v1/vulnerabilities?q=x&api_key=pgk_%5Bredacted%5D");
    expect(redactUrl(`/api/v1/products/${key}`)).toBe("/api/v1/products/pgk_[redacted]");
  });

  it("leaves other URLs alone", () => {
    expect(redactUrl("/database?q=contact+form&page=2")).toBe("/database?q=contact+form&page=2");
    expect(redactUrl("/api/user")).toBe("/api/user");
  });
});
