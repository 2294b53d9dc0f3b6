/**
 * The one template set (PRODUCT.md §8): every e-mail is rendered here, in plain text and HTML,
 * from the same words, so the two never drift apart.
 */
export type MailTemplate =
  | { template: "magic_link"; name: string; url: string }
  | { template: "email_verification"; name: string; url: string }
  | { template: "password_reset"; name: string; url: string };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Content {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footnote: string;
}

function contentOf(mail: MailTemplate, siteName: string): Content {
  switch (mail.template) {
    case "magic_link":
      return {
        subject: `Your ${siteName} sign-in link`,
        greeting: `Hello ${mail.name},`,
        paragraphs: ["Use the link below to sign in. It works once and expires in 15 minutes."],
        action: { label: "Sign in", url: mail.url },
        footnote: "If you did not ask for this link, you can ignore this e-mail.",
      };
    case "email_verification":
      return {
        subject: `Confirm your e-mail address for ${siteName}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          "Please confirm your e-mail address. Reports and program activation need a confirmed address.",
        ],
        action: { label: "Confirm e-mail address", url: mail.url },
        footnote: "If you did not create an account, you can ignore this e-mail.",
      };
    case "password_reset":
      return {
        subject: `Reset your ${siteName} password`,
        greeting: `Hello ${mail.name},`,
        paragraphs: ["Use the link below to choose a new password. It works once and expires in 60 minutes."],
        action: { label: "Reset password", url: mail.url },
        footnote: "If you did not ask for a password reset, no action is needed.",
      };
  }
}

export function escapeHtml(value: string): string {
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
    `${content.action.label}: ${content.action.url}`,
    "",
    content.footnote,
    "",
    `— ${siteName}`,
  ].join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(content.greeting)}</p>
${content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:8px 16px;background:#0f172a;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#475569">${escapeHtml(content.footnote)}<br>${escapeHtml(content.action.url)}</p>
<p>— ${escapeHtml(siteName)}</p>
</body></html>`;
  return { subject: content.subject, text, html };
}
