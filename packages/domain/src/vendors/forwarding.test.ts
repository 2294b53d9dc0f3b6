import { describe, expect, it } from "vitest";
import { ForwardEmailTargetInput, ForwardTargetUpdate, ForwardWebhookTargetInput } from "./forwarding.ts";

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("report forwarding inputs", () => {
  it("lower-cases the e-mail address and de-duplicates the events", () => {
    expect(
      ForwardEmailTargetInput.parse({
        email: " Security@Acme.Example ",
        events: ["report.validated", "report.validated"],
      }),
    ).toEqual({ email: "security@acme.example", events: ["report.validated"] });
  });

  it("accepts http(s) webhook URLs only, without credentials", () => {
    expect(ForwardWebhookTargetInput.parse({ url: "https://hooks.example/x" })).toEqual({
      url: "https://hooks.example/x",
      format: "json",
      events: [],
    });
    expect(messagesOf(ForwardWebhookTargetInput.safeParse({ url: "ftp://hooks.example/x" }))).toEqual([
      "The URL must start with https:// or http://.",
    ]);
    expect(messagesOf(ForwardWebhookTargetInput.safeParse({ url: "https://a:b@hooks.example/x" }))).toEqual([
      "The URL may not contain a user name or password.",
    ]);
    expect(messagesOf(ForwardWebhookTargetInput.safeParse({ url: "hooks.example" }))[0]).toContain(
      "full URL",
    );
  });

  it("refuses unknown event types and formats, and report.test as a subscription", () => {
    expect(ForwardTargetUpdate.safeParse({ events: ["report.test"] }).success).toBe(false);
    expect(messagesOf(ForwardTargetUpdate.safeParse({ format: "xml" }))).toEqual([
      "Format must be json, slack or discord.",
    ]);
  });
});
