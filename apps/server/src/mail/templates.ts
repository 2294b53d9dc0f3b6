/**
 * The one template set (PRODUCT.md §8): every e-mail is rendered here, in plain text and HTML,
 * from the same words, so the two never drift apart.
 */
export type MailTemplate =
  | { template: "magic_link"; name: string; url: string }
  | { template: "email_verification"; name: string; url: string }
  | { template: "password_reset"; name: string; url: string }
  | {
      /** Someone registered with an address that has an account (issue 15: the answer does not say so). */
      template: "registration_attempt";
      name: string;
      signInUrl: string;
      resetUrl: string;
    }
  | {
      /**
       * The account's password was changed or reset (ASVS 2.2.3: a notice after any change of a
       * credential), so that an owner who did not do it learns of it and can take the account back.
       */
      template: "password_changed";
      name: string;
      /** When, ISO 8601. */
      changedAt: string;
      how: "changed" | "reset";
      resetUrl: string;
    }
  | {
      /** An invitation to a seat in a vendor organisation (issue 8): a single-use link, 7 days. */
      template: "seat_invitation";
      inviterName: string;
      vendorName: string;
      role: string;
      /** When the link stops working, ISO 8601. */
      expiresAt: string;
      url: string;
    }
  | {
      /** The researcher hears of each step of their report (issue 7). */
      template:
        | "report_received"
        | "report_in_review"
        | "report_rejected"
        | "report_validated"
        | "report_fix_submitted"
        | "report_fixed"
        | "report_published";
      name: string;
      reportTitle: string;
      /** Why it was rejected (a REJECTION_REASONS label) or the note staff left, when any. */
      detail: string | null;
      url: string;
    }
  | {
      /** The vendor owning the product is told of a validated report and its fix deadline. */
      template: "report_vendor_notified";
      name: string;
      reportTitle: string;
      productName: string;
      /** The fix deadline, ISO 8601. */
      deadline: string;
      url: string;
    }
  | {
      /**
       * The vendor's side after staff checked its fix: not enough (back to awaiting_fix, with the
       * staff note), or verified. Sent to the vendor's contact, or the PIN contact (name empty).
       */
      template: "report_fix_insufficient" | "report_vendor_fixed";
      name: string;
      reportTitle: string;
      productName: string;
      detail: string | null;
      url: string;
    }
  | {
      /** Staff hear that a vendor or PIN contact submitted a fix to verify. */
      template: "report_fix_to_verify";
      reportTitle: string;
      productName: string;
      fixedVersion: string;
      /** Where the vendor says the fix can be read (a commit, a release), if given. */
      fixUrl?: string | null;
      url: string;
    }
  | {
      /**
       * A product with no active program: its contact e-mail gets a private link to the PIN page;
       * the PIN itself comes in a separate e-mail (`report_pin`, PRODUCT.md §2).
       */
      template: "report_pin_notice";
      reportTitle: string;
      productName: string;
      /** The fix deadline, ISO 8601. */
      deadline: string;
      url: string;
    }
  | { template: "report_pin"; reportTitle: string; productName: string; pin: string; url: string }
  | {
      /** The deadline job: 7 days before the fix deadline, and once it has passed. */
      template: "report_deadline_near" | "report_deadline_passed";
      name: string;
      reportTitle: string;
      productName: string;
      /** The fix deadline, ISO 8601. */
      deadline: string;
      url: string;
    }
  | {
      /** Report forwarding (issue 8): confirms an e-mail target before it receives anything. */
      template: "forwarding_confirm";
      vendorName: string;
      url: string;
    }
  | {
      /** Report forwarding: a target was switched off after consecutive failed deliveries (to the owners). */
      template: "forwarding_target_disabled";
      name: string;
      vendorName: string;
      /** The webhook URL or e-mail address. */
      target: string;
      reason: string;
      url: string;
    }
  | {
      /** Report forwarding: one report event, delivered to a confirmed e-mail target. */
      template: "forwarded_report_event";
      vendorName: string;
      headline: string;
      /** Facts of the event, one per line (product, state, severity, comment…). */
      lines: string[];
      url: string;
    }
  | {
      template: "product_claim_decided";
      name: string;
      productName: string;
      approved: boolean;
      reason: string | null;
      url: string;
    }
  | {
      /** The vendor's plan changed (issue 8), by its owner or admin or by staff; links the invoice if any. */
      template: "plan_changed";
      vendorName: string;
      /** Plan labels: Free, Paid. */
      fromPlan: string;
      toPlan: string;
      byStaff: boolean;
      invoice: { number: string; amount: string; currency: string } | null;
      url: string;
    };

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
    case "plan_changed":
      return {
        subject: `Your ${siteName} plan is now ${mail.toPlan}`,
        greeting: `Hello ${mail.vendorName},`,
        paragraphs: [
          mail.byStaff
            ? `Our team changed your organisation's plan from ${mail.fromPlan} to ${mail.toPlan}.`
            : `Your organisation's plan changed from ${mail.fromPlan} to ${mail.toPlan}.`,
          mail.invoice
            ? `Invoice ${mail.invoice.number} for ${mail.invoice.amount} ${mail.invoice.currency} is ready to view and print.`
            : "No invoice was issued for this change.",
        ],
        action: mail.invoice
          ? { label: "View the invoice", url: mail.url }
          : { label: "View your subscription", url: mail.url },
        footnote: "You received this e-mail because this address is your organisation's contact.",
      };
    case "forwarding_confirm":
      return {
        subject: `Confirm report forwarding for ${mail.vendorName}`,
        greeting: "Hello,",
        paragraphs: [
          `${mail.vendorName} asked ${siteName} to forward its vulnerability report events to this address.`,
          "Nothing is sent here until you confirm. The link works for 7 days.",
        ],
        action: { label: "Confirm forwarding", url: mail.url },
        footnote: "If you do not expect this, ignore this e-mail and nothing will be forwarded.",
      };
    case "forwarding_target_disabled":
      return {
        subject: `Report forwarding switched off: ${mail.target}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `We stopped forwarding ${mail.vendorName}'s report events to ${mail.target}.`,
          `Reason: ${mail.reason}`,
          "Check the receiver, then enable the target again on the report forwarding page.",
        ],
        action: { label: "Open report forwarding", url: mail.url },
        footnote: "You received this e-mail because you own this organisation.",
      };
    case "forwarded_report_event":
      return {
        subject: mail.headline,
        greeting: "Hello,",
        paragraphs: mail.lines,
        action: { label: "Open the report", url: mail.url },
        footnote: `You received this e-mail because ${mail.vendorName} forwards its report events to this address.`,
      };
    case "product_claim_decided":
      return mail.approved
        ? {
            subject: `Your claim on ${mail.productName} was approved`,
            greeting: `Hello ${mail.name},`,
            paragraphs: [
              `${mail.productName} is now yours on ${siteName}, and its vulnerability disclosure program is active.`,
            ],
            action: { label: "Open the program", url: mail.url },
            footnote: "You received this e-mail because you claimed this product.",
          }
        : {
            subject: `Your claim on ${mail.productName} was not approved`,
            greeting: `Hello ${mail.name},`,
            paragraphs: [
              `Our team could not confirm that ${mail.productName} is yours.`,
              `Reason: ${mail.reason ?? "not given"}`,
              "Reply to this e-mail with proof of ownership (for example a message from the product's domain) to ask again.",
            ],
            action: { label: "Open your programs", url: mail.url },
            footnote: "You received this e-mail because you claimed this product.",
          };
    case "report_received":
      return {
        subject: `We received your report: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `Thank you for your report "${mail.reportTitle}". Our team will review it and e-mail you at each step.`,
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_in_review":
      return {
        subject: `Your report is in review: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `Our team started reviewing your report "${mail.reportTitle}". We may ask questions in the report's comments.`,
          ...(mail.detail ? [mail.detail] : []),
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_fix_submitted":
      return {
        subject: `The vendor submitted a fix: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `The vendor submitted a fix for your report "${mail.reportTitle}". Our team will verify it; you are welcome to check it too and comment on the report.`,
          ...(mail.detail ? [mail.detail] : []),
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_fixed":
      return {
        subject: `The fix was verified: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `Our team verified the vendor's fix for your report "${mail.reportTitle}". It will be published with credit to you next.`,
          ...(mail.detail ? [mail.detail] : []),
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_fix_insufficient":
      return {
        subject: `The fix is not sufficient yet: ${mail.reportTitle}`,
        greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
        paragraphs: [
          `Our team checked the fix submitted for "${mail.reportTitle}" in ${mail.productName} and the vulnerability is not fixed yet.`,
          ...(mail.detail ? [`Our note: ${mail.detail}`] : []),
          "Please submit a new fix before the deadline on the report's page.",
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you are the security contact of this product.",
      };
    case "report_vendor_fixed":
      return {
        subject: `Fix verified: ${mail.reportTitle}`,
        greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
        paragraphs: [
          `Our team verified your fix for "${mail.reportTitle}" in ${mail.productName}. Thank you.`,
          ...(mail.detail ? [mail.detail] : []),
          "The vulnerability will be published in the public database with the fixed version.",
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you are the security contact of this product.",
      };
    case "report_fix_to_verify":
      return {
        subject: `Fix to verify: ${mail.reportTitle}`,
        greeting: "Hello,",
        paragraphs: [
          `A fix (version ${mail.fixedVersion}) was submitted for "${mail.reportTitle}" in ${mail.productName}. Please verify it.`,
          ...(mail.fixUrl ? [`The vendor links the fix: ${mail.fixUrl}`] : []),
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you triage reports as staff.",
      };
    case "report_rejected":
      return {
        subject: `Your report was not accepted: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `Our team reviewed your report "${mail.reportTitle}" and did not accept it.`,
          ...(mail.detail ? [`Reason: ${mail.detail}`] : []),
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_validated":
      return {
        subject: `Your report was validated: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `Our team confirmed your report "${mail.reportTitle}". The vendor will be asked to fix it; we will e-mail you when it is published.`,
          ...(mail.detail ? [mail.detail] : []),
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_published":
      return {
        subject: `Your vulnerability was published: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `"${mail.reportTitle}" is now in the public database, credited to you.`,
          ...(mail.detail ? [mail.detail] : []),
        ],
        action: { label: "View the vulnerability", url: mail.url },
        footnote: "You received this e-mail because you reported a vulnerability.",
      };
    case "report_vendor_notified":
      return {
        subject: `Vulnerability report for ${mail.productName}: ${mail.reportTitle}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `Our team validated a vulnerability report for ${mail.productName}: "${mail.reportTitle}".`,
          `Please fix it and submit the fixed version by ${mail.deadline.slice(0, 10)} (UTC). After that date the vulnerability may be published without a fix.`,
        ],
        action: { label: "Open the report", url: mail.url },
        footnote:
          "You received this e-mail because you run the vulnerability disclosure program of this product.",
      };
    case "report_pin_notice":
      return {
        subject: `Vulnerability report for ${mail.productName}: ${mail.reportTitle}`,
        greeting: "Hello,",
        paragraphs: [
          `A security researcher reported a vulnerability in ${mail.productName}, and our team validated it: "${mail.reportTitle}".`,
          "The product has no vulnerability disclosure program with us, so the report is waiting behind the private link below. Open it with the 6-digit PIN we sent in a separate e-mail.",
          `Please fix it and submit the fixed version by ${mail.deadline.slice(0, 10)} (UTC). After that date the vulnerability may be published without a fix.`,
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: `You received this e-mail because this address is the security contact of ${mail.productName}. Do not share the link or the PIN.`,
      };
    case "report_pin":
      return {
        subject: `Your PIN for the ${mail.productName} report`,
        greeting: "Hello,",
        paragraphs: [
          `The PIN for the vulnerability report "${mail.reportTitle}" is: ${mail.pin}`,
          "Enter it on the report's page, linked in our other e-mail. Five wrong tries lock the report for 15 minutes.",
        ],
        action: { label: "Enter the PIN", url: mail.url },
        footnote: `You received this e-mail because this address is the security contact of ${mail.productName}. Do not share the PIN.`,
      };
    case "report_deadline_near":
      return {
        subject: `7 days left to fix: ${mail.reportTitle}`,
        greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
        paragraphs: [
          `The fix deadline of the vulnerability report "${mail.reportTitle}" for ${mail.productName} ends on ${mail.deadline.slice(0, 10)} (UTC).`,
          "Please submit the fixed version before then. After the deadline the vulnerability may be published without a fix.",
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you are the security contact of this product.",
      };
    case "report_deadline_passed":
      return {
        subject: `Fix deadline passed: ${mail.reportTitle}`,
        greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
        paragraphs: [
          `The fix deadline of the vulnerability report "${mail.reportTitle}" for ${mail.productName} ended on ${mail.deadline.slice(0, 10)} (UTC) without a fix.`,
          "Our team may now publish the vulnerability unpatched. Submitting a fix still helps your users and is shown on the public record.",
        ],
        action: { label: "Open the report", url: mail.url },
        footnote: "You received this e-mail because you are the security contact of this product.",
      };
    case "seat_invitation":
      return {
        subject: `Join ${mail.vendorName} on ${siteName}`,
        greeting: "Hello,",
        paragraphs: [
          `${mail.inviterName} invited you to join ${mail.vendorName} on ${siteName} as ${mail.role === "admin" ? "an admin" : "a member"}, to read and handle the vulnerability reports of its products.`,
          `The link works once, until ${mail.expiresAt.slice(0, 10)} (UTC). Open it to create your account or to sign in and accept.`,
        ],
        action: { label: `Join ${mail.vendorName}`, url: mail.url },
        footnote: "If you did not expect this invitation, you can ignore this e-mail.",
      };
    case "registration_attempt":
      return {
        subject: `Someone tried to create a ${siteName} account with your address`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          "Someone tried to register with your e-mail address, which already has an account. No new account was created.",
          `If it was you, sign in with the link below. If you forgot your password, reset it at ${mail.resetUrl}`,
        ],
        action: { label: "Sign in", url: mail.signInUrl },
        footnote: "If it was not you, you can ignore this e-mail: your account has not changed.",
      };
    case "password_changed":
      return {
        subject: `Your ${siteName} password was ${mail.how}`,
        greeting: `Hello ${mail.name},`,
        paragraphs: [
          `The password of your ${siteName} account was ${mail.how === "reset" ? "reset with an e-mailed link" : "changed"} on ${mail.changedAt.slice(0, 16).replace("T", " ")} (UTC). Every other session and API token of the account was signed out.`,
          "If it was not you, someone else knows your password or can read your e-mail: choose a new password with the link below at once, then check your e-mail account's security.",
        ],
        action: { label: "Reset password", url: mail.resetUrl },
        footnote: "If it was you, no action is needed.",
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
