import { describe, expect, it } from "vitest";
import type { WatchAlertItem, WatchAlertPayload } from "./payload.ts";
import { webhookBodyOf } from "./webhook-body.ts";

/** Issue 38: Slack and Discord take so many blocks or embeds a message; the rest are on the watchlist's page. */
const URL = "https://pressguard.example/watchlists/0f7c";

function payloadOf(count: number): WatchAlertPayload {
  const alert = (index: number): WatchAlertItem => ({
    change: "new",
    entry: { kind: "plugin", slug: `plugin-${index}`, version: "1.0" },
    vulnerability: {
      id: `id-${index}`,
      title: `Plugin ${index} <= 1.0 - Stored XSS`,
      url: `https://pressguard.example/v/${index}`,
      severity: "high",
      cve: null,
      fixed_in: "1.1",
      fixed_in_inferred: null,
    },
    action: `Update plugin-${index} to 1.1 or later.`,
  });
  return {
    id: "event",
    type: "watchlist.alert",
    created_at: "2026-12-01T10:00:00.000Z",
    watchlist: { id: "0f7c", name: "agency", url: URL },
    alerts: Array.from({ length: count }, (_, index) => alert(index)),
  };
}

describe("a watchlist alert in Slack's and Discord's formats", () => {
  it("says how many more alerts the watchlist's page holds, with its link", () => {
    const slack = JSON.parse(webhookBodyOf(payloadOf(59), "slack"));
    expect(slack.blocks).toHaveLength(1 + 40 + 1);
    expect(slack.blocks.at(-1).text.text).toBe(`<${URL}|…and 19 more on the watchlist page>`);

    const discord = JSON.parse(webhookBodyOf(payloadOf(59), "discord"));
    expect(discord.embeds).toHaveLength(10);
    expect(discord.content).toBe(
      `59 vulnerabilities affect agency\n…and 49 more on the watchlist page: ${URL}`,
    );
  });

  it("adds no such line when every alert fits", () => {
    const slack = JSON.parse(webhookBodyOf(payloadOf(40), "slack"));
    expect(slack.blocks).toHaveLength(41);
    expect(JSON.stringify(slack)).not.toContain("more on the watchlist page");
    const discord = JSON.parse(webhookBodyOf(payloadOf(10), "discord"));
    expect(discord.content).toBe("10 vulnerabilities affect agency");
  });
});
