/**
 * The one template set (PRODUCT.md §8): every e-mail is rendered here, in plain text and HTML,
 * from the same words, so the two never drift apart.
 */
import { type AccountMail, accountTemplates } from "./account-templates.ts";
import { type ExploitationMail, exploitationTemplates } from "./exploitation-templates.ts";
import { type NoticeMail, noticeTemplates } from "./notice-templates.ts";
import { type ReportMail, reportTemplates } from "./report-templates.ts";
import type { MailContent, TemplateContents } from "./template-content.ts";
import { type VendorMail, vendorTemplates } from "./vendor-templates.ts";
import { type WatchMail, watchTemplates } from "./watch-templates.ts";

export type MailTemplate = AccountMail | VendorMail | ReportMail | WatchMail | ExploitationMail | NoticeMail;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const TEMPLATES: TemplateContents<MailTemplate> = {
  ...accountTemplates,
  ...vendorTemplates,
  ...reportTemplates,
  ...watchTemplates,
  ...exploitationTemplates,
  ...noticeTemplates,
};

function contentOf(mail: MailTemplate, siteName: string): MailContent {
  // The record pairs each template with its own content function; TypeScript cannot follow the pair.
  const render = TEMPLATES[mail.template] as (mail: MailTemplate, siteName: string) => MailContent;
  return render(mail, siteName);
}

function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

export function renderMail(mail: MailTemplate, siteName: string): RenderedMail {
  const content = contentOf(mail, siteName);
  const text = [
    content.greeting,
    "",
    ...content.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    content.footnote,
    "",
    `— ${siteName}`,
  ].join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(content.greeting)}</p>
${content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${
  content.action
    ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:8px 16px;background:#0f172a;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#475569">${escapeHtml(content.footnote)}<br>${escapeHtml(content.action.url)}</p>`
    : `<p style="font-size:13px;color:#475569">${escapeHtml(content.footnote)}</p>`
}
<p>— ${escapeHtml(siteName)}</p>
</body></html>`;
  return { subject: content.subject, text, html };
}
