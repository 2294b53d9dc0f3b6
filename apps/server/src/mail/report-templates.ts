import type { TemplateContents } from "./template-content.ts";

/** Mail of a report's life: to the researcher, the vendor (or the PIN contact) and staff, at each step. */
export type ReportMail =
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
  | { template: "report_pin"; reportTitle: string; productName: string; pin: string }
  | {
      /** The researcher hears that staff recorded a CVE id for their report (issue 19). */
      template: "report_cve_recorded";
      name: string;
      reportTitle: string;
      cve: string;
      /** Whether the vulnerability is already public, so the id shows on its record now. */
      published: boolean;
      url: string;
    }
  | {
      /** The deadline job: 30 and 7 days before the fix deadline, and once it has passed. */
      template: "report_deadline_reminder" | "report_deadline_near" | "report_deadline_passed";
      name: string;
      reportTitle: string;
      productName: string;
      /** The fix deadline, ISO 8601. */
      deadline: string;
      url: string;
    };

export const reportTemplates: TemplateContents<ReportMail> = {
  report_received: (mail) => ({
    subject: `We received your report: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Thank you for your report "${mail.reportTitle}". Our team will review it and e-mail you at each step.`,
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_in_review: (mail) => ({
    subject: `Your report is in review: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Our team started reviewing your report "${mail.reportTitle}". We may ask questions in the report's comments.`,
      ...(mail.detail ? [mail.detail] : []),
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_fix_submitted: (mail) => ({
    subject: `The vendor submitted a fix: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `The vendor submitted a fix for your report "${mail.reportTitle}". Our team will verify it; you are welcome to check it too and comment on the report.`,
      ...(mail.detail ? [mail.detail] : []),
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_fixed: (mail) => ({
    subject: `The fix was verified: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Our team verified the vendor's fix for your report "${mail.reportTitle}". It will be published with credit to you next.`,
      ...(mail.detail ? [mail.detail] : []),
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_fix_insufficient: (mail) => ({
    subject: `The fix is not sufficient yet: ${mail.reportTitle}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `Our team checked the fix submitted for "${mail.reportTitle}" in ${mail.productName} and the vulnerability is not fixed yet.`,
      ...(mail.detail ? [`Our note: ${mail.detail}`] : []),
      "Please submit a new fix before the deadline on the report's page.",
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you are the security contact of this product.",
  }),
  report_vendor_fixed: (mail) => ({
    subject: `Fix verified: ${mail.reportTitle}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `Our team verified your fix for "${mail.reportTitle}" in ${mail.productName}. Thank you.`,
      ...(mail.detail ? [mail.detail] : []),
      "The vulnerability will be published in the public database with the fixed version.",
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you are the security contact of this product.",
  }),
  report_fix_to_verify: (mail) => ({
    subject: `Fix to verify: ${mail.reportTitle}`,
    greeting: "Hello,",
    paragraphs: [
      `A fix (version ${mail.fixedVersion}) was submitted for "${mail.reportTitle}" in ${mail.productName}. Please verify it.`,
      ...(mail.fixUrl ? [`The vendor links the fix: ${mail.fixUrl}`] : []),
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you triage reports as staff.",
  }),
  report_rejected: (mail) => ({
    subject: `Your report was not accepted: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Our team reviewed your report "${mail.reportTitle}" and did not accept it.`,
      ...(mail.detail ? [`Reason: ${mail.detail}`] : []),
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_validated: (mail) => ({
    subject: `Your report was validated: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Our team confirmed your report "${mail.reportTitle}". The vendor will be asked to fix it; we will e-mail you when it is published.`,
      ...(mail.detail ? [mail.detail] : []),
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_published: (mail) => ({
    subject: `Your vulnerability was published: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `"${mail.reportTitle}" is now in the public database, credited to you.`,
      ...(mail.detail ? [mail.detail] : []),
    ],
    action: { label: "View the vulnerability", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_cve_recorded: (mail) => ({
    subject: `${mail.cve} is reserved for your report: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Our team recorded the CVE id ${mail.cve} for your report "${mail.reportTitle}".`,
      mail.published
        ? "The published vulnerability now shows it."
        : "It will be shown on the public record when the vulnerability is published. Until then, please keep it private.",
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you reported a vulnerability.",
  }),
  report_vendor_notified: (mail) => ({
    subject: `Vulnerability report for ${mail.productName}: ${mail.reportTitle}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `Our team validated a vulnerability report for ${mail.productName}: "${mail.reportTitle}".`,
      `Please fix it and submit the fixed version by ${mail.deadline.slice(0, 10)} (UTC). After that date the vulnerability may be published without a fix.`,
    ],
    action: { label: "Open the report", url: mail.url },
    footnote:
      "You received this e-mail because you run the vulnerability disclosure program of this product.",
  }),
  report_pin_notice: (mail) => ({
    subject: `Vulnerability report for ${mail.productName}: ${mail.reportTitle}`,
    greeting: "Hello,",
    paragraphs: [
      `A security researcher reported a vulnerability in ${mail.productName}, and our team validated it: "${mail.reportTitle}".`,
      "The product has no vulnerability disclosure program with us, so the report is waiting behind the private link below. Open it with the 6-digit PIN we sent in a separate e-mail.",
      `Please fix it and submit the fixed version by ${mail.deadline.slice(0, 10)} (UTC). After that date the vulnerability may be published without a fix.`,
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: `You received this e-mail because this address is the security contact of ${mail.productName}. Do not share the link or the PIN.`,
  }),
  report_pin: (mail) => ({
    subject: `Your PIN for the ${mail.productName} report`,
    greeting: "Hello,",
    paragraphs: [
      `The PIN for the vulnerability report "${mail.reportTitle}" is: ${mail.pin}`,
      "Enter it on the report's page, linked in our other e-mail: this one carries no link, so that the link and the PIN never travel together. Five wrong tries lock the report for 15 minutes.",
    ],
    footnote: `You received this e-mail because this address is the security contact of ${mail.productName}. Do not share the PIN.`,
  }),
  report_deadline_reminder: (mail) => ({
    subject: `Reminder, fix deadline on ${mail.deadline.slice(0, 10)}: ${mail.reportTitle}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `The vulnerability report "${mail.reportTitle}" for ${mail.productName} is still waiting for a fix. Its fix deadline ends on ${mail.deadline.slice(0, 10)} (UTC).`,
      "Please submit the fixed version before then, or reply on the report if you need help or more time. After the deadline the vulnerability may be published without a fix.",
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you are the security contact of this product.",
  }),
  report_deadline_near: (mail) => ({
    subject: `7 days left to fix: ${mail.reportTitle}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `The fix deadline of the vulnerability report "${mail.reportTitle}" for ${mail.productName} ends on ${mail.deadline.slice(0, 10)} (UTC).`,
      "Please submit the fixed version before then. After the deadline the vulnerability may be published without a fix.",
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you are the security contact of this product.",
  }),
  report_deadline_passed: (mail) => ({
    subject: `Fix deadline passed: ${mail.reportTitle}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `The fix deadline of the vulnerability report "${mail.reportTitle}" for ${mail.productName} ended on ${mail.deadline.slice(0, 10)} (UTC) without a fix.`,
      "Our team may now publish the vulnerability unpatched. Submitting a fix still helps your users and is shown on the public record.",
    ],
    action: { label: "Open the report", url: mail.url },
    footnote: "You received this e-mail because you are the security contact of this product.",
  }),
};
