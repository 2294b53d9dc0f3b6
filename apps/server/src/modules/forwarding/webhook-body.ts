import { createHmac } from "node:crypto";
import type { ForwardFormat } from "@pressguard/domain";
import { eventLabelOf, type ForwardPayload } from "./payload.ts";

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

export function headlineOf(payload: ForwardPayload): string {
  return `${eventLabelOf(payload.type)}: ${payload.report.title}`;
}

/** The request body in the target's format; Slack and Discord incoming webhooks accept these shapes. */
export function webhookBodyOf(payload: ForwardPayload, format: ForwardFormat): string {
  const headline = headlineOf(payload);
  const lines = summaryLines(payload);
  switch (format) {
    case "json":
      return JSON.stringify(payload);
    case "slack":
      return JSON.stringify({
        text: `${headline} — ${payload.report.url}`,
        blocks: [
          { type: "section", text: { type: "mrkdwn", text: `*<${payload.report.url}|${headline}>*` } },
          { type: "section", text: { type: "mrkdwn", text: lines.join("\n") } },
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
