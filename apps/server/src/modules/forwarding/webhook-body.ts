import { createHmac } from "node:crypto";
import { deliveredEventLabel, type ForwardFormat } from "@pressguard/domain";
import {
  type DeliveryPayload,
  type ForwardPayload,
  isWatchAlertPayload,
  isWatchNoticePayload,
  type WatchAlertItem,
  type WatchAlertPayload,
  type WatchNoticePayload,
} from "./payload.ts";

export const WEBHOOK_USER_AGENT = "Pressguard-Webhooks/1";

/** Stripe-style: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function signatureOf(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}

function summaryLines(payload: ForwardPayload): string[] {
  const { report } = payload;
  const lines = [
    `${report.product.name} (${report.product.kind} ${report.product.slug})`,
    `State: ${report.state.from ?? "—"} → ${report.state.to}`,
  ];
  if (report.severity)
    lines.push(
      `Severity: ${report.severity}${report.cvss.score !== null ? ` (CVSS ${report.cvss.score})` : ""}`,
    );
  if (report.vulnerability_type) lines.push(`Type: ${report.vulnerability_type}`);
  if (report.affected_versions) lines.push(`Affected: ${report.affected_versions}`);
  if (report.fixed_version) lines.push(`Fixed in: ${report.fixed_version}`);
  if (report.fix_deadline_at) lines.push(`Fix deadline: ${report.fix_deadline_at.slice(0, 10)}`);
  if (payload.comment) lines.push(`Comment: ${payload.comment.body.slice(0, 1500)}`);
  return lines;
}

/** Slack's mrkdwn reads `<`, `>` and `&` as markup: a title such as "WordPress < 6.5.5" must be escaped. */
const slackText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function alertLineOf(alert: WatchAlertItem): string {
  const { entry, vulnerability } = alert;
  return [
    `${entry.slug} ${entry.version}${alert.change === "changed" ? " (updated record)" : ""}: ${vulnerability.title}`,
    vulnerability.severity ? ` (${vulnerability.severity})` : "",
    `. ${alert.action}`,
  ].join("");
}

export function headlineOf(payload: DeliveryPayload): string {
  if (isWatchNoticePayload(payload))
    return `${payload.notice.vendor} about ${payload.notice.product.name}, on ${payload.watchlist.name}`;
  if (!isWatchAlertPayload(payload)) return `${deliveredEventLabel(payload.type)}: ${payload.report.title}`;
  const count = payload.alerts.length;
  const what = count === 1 ? "A vulnerability affects" : `${count} vulnerabilities affect`;
  return `${payload.test ? "Test event: " : ""}${what} ${payload.watchlist.name}`;
}

/** Alerts a Slack message (50 blocks at most) and a Discord one (10 embeds) show; the rest are on the page. */
const SHOWN_ALERTS = { slack: 40, discord: 10 } as const;

/** A watchlist alert in Slack's and Discord's shapes: one line (Slack) or embed (Discord) per alert. */
function watchAlertBodyOf(payload: WatchAlertPayload, format: "slack" | "discord"): string {
  const headline = headlineOf(payload);
  const shown = payload.alerts.slice(0, SHOWN_ALERTS[format]);
  const rest = payload.alerts.length - shown.length;
  const more = `…and ${rest} more on the watchlist page`;
  if (format === "slack")
    return JSON.stringify({
      text: `${headline} — ${payload.watchlist.url}`,
      blocks: [
        {
          type: "section",
          text: { type: "mrkdwn", text: `*<${payload.watchlist.url}|${slackText(headline)}>*` },
        },
        ...shown.map((alert) => ({
          type: "section",
          text: {
            type: "mrkdwn",
            text: `<${alert.vulnerability.url}|${slackText(alertLineOf(alert).slice(0, 2900))}>`,
          },
        })),
        ...(rest > 0
          ? [{ type: "section", text: { type: "mrkdwn", text: `<${payload.watchlist.url}|${more}>` } }]
          : []),
      ],
    });
  return JSON.stringify({
    content: (rest > 0 ? `${headline}\n${more}: ${payload.watchlist.url}` : headline).slice(0, 2000),
    embeds: shown.map((alert) => ({
      title: alert.vulnerability.title.slice(0, 256),
      url: alert.vulnerability.url,
      description: alertLineOf(alert).slice(0, 4096),
      timestamp: payload.created_at,
    })),
  });
}

/** A vendor's notice: its message as written, in Slack's and Discord's shapes. */
function noticeBodyOf(payload: WatchNoticePayload, format: "slack" | "discord"): string {
  const headline = headlineOf(payload);
  const { product, message } = payload.notice;
  if (format === "slack")
    return JSON.stringify({
      text: `${headline} — ${product.url}`,
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: `*<${product.url}|${slackText(headline)}>*` } },
        { type: "section", text: { type: "plain_text", text: message.slice(0, 2900) } },
      ],
    });
  return JSON.stringify({
    content: headline.slice(0, 2000),
    embeds: [
      {
        title: product.name.slice(0, 256),
        url: product.url,
        description: message.slice(0, 4096),
        timestamp: payload.created_at,
      },
    ],
  });
}

/** The request body in the target's format; Slack and Discord incoming webhooks accept these shapes. */
export function webhookBodyOf(payload: DeliveryPayload, format: ForwardFormat): string {
  if (format === "json") return JSON.stringify(payload);
  if (isWatchAlertPayload(payload)) return watchAlertBodyOf(payload, format);
  if (isWatchNoticePayload(payload)) return noticeBodyOf(payload, format);
  return reportBodyOf(payload, format);
}

function reportBodyOf(payload: ForwardPayload, format: "slack" | "discord"): string {
  const headline = headlineOf(payload);
  const lines = summaryLines(payload);
  switch (format) {
    case "slack":
      return JSON.stringify({
        text: `${headline} — ${payload.report.url}`,
        blocks: [
          {
            type: "section",
            text: { type: "mrkdwn", text: `*<${payload.report.url}|${slackText(headline)}>*` },
          },
          { type: "section", text: { type: "mrkdwn", text: slackText(lines.join("\n")) } },
        ],
      });
    case "discord":
      return JSON.stringify({
        content: headline.slice(0, 2000),
        embeds: [
          {
            title: payload.report.title.slice(0, 256),
            url: payload.report.url,
            description: lines.join("\n").slice(0, 4096),
            timestamp: payload.created_at,
          },
        ],
      });
  }
}
