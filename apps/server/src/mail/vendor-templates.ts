import type { TemplateContents } from "./template-content.ts";

/** Mail to a vendor's people: seat invitations, plan changes, report forwarding, product claims. */
export type VendorMail =
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

export const vendorTemplates: TemplateContents<VendorMail> = {
  plan_changed: (mail, siteName) => ({
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
  }),
  forwarding_confirm: (mail, siteName) => ({
    subject: `Confirm report forwarding for ${mail.vendorName}`,
    greeting: "Hello,",
    paragraphs: [
      `${mail.vendorName} asked ${siteName} to forward its vulnerability report events to this address.`,
      "Nothing is sent here until you confirm. The link works for 7 days.",
    ],
    action: { label: "Confirm forwarding", url: mail.url },
    footnote: "If you do not expect this, ignore this e-mail and nothing will be forwarded.",
  }),
  forwarding_target_disabled: (mail) => ({
    subject: `Report forwarding switched off: ${mail.target}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `We stopped forwarding ${mail.vendorName}'s report events to ${mail.target}.`,
      `Reason: ${mail.reason}`,
      "Check the receiver, then enable the target again on the report forwarding page.",
    ],
    action: { label: "Open report forwarding", url: mail.url },
    footnote: "You received this e-mail because you own this organisation.",
  }),
  forwarded_report_event: (mail) => ({
    subject: mail.headline,
    greeting: "Hello,",
    paragraphs: mail.lines,
    action: { label: "Open the report", url: mail.url },
    footnote: `You received this e-mail because ${mail.vendorName} forwards its report events to this address.`,
  }),
  product_claim_decided: (mail, siteName) =>
    mail.approved
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
        },
  seat_invitation: (mail, siteName) => ({
    subject: `Join ${mail.vendorName} on ${siteName}`,
    greeting: "Hello,",
    paragraphs: [
      `${mail.inviterName} invited you to join ${mail.vendorName} on ${siteName} as ${mail.role === "admin" ? "an admin" : "a member"}, to read and handle the vulnerability reports of its products.`,
      `The link works once, until ${mail.expiresAt.slice(0, 10)} (UTC). Open it to create your account or to sign in and accept.`,
    ],
    action: { label: `Join ${mail.vendorName}`, url: mail.url },
    footnote: "If you did not expect this invitation, you can ignore this e-mail.",
  }),
};
