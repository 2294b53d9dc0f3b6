import { REJECTION_REASONS, type ReportAction } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { MailTemplate } from "../../mail/templates.ts";
import { createPinQueries } from "./pin-queries.ts";
import { PREVIEW_LINK_SECONDS, type PreviewTokens } from "./preview-tokens.ts";
import { hasActiveProgram } from "./report-context.ts";
import { createReportQueries, type ReportRow } from "./report-queries.ts";
import { duplicateOf, publicPathOf } from "./report-views.ts";

export interface ReportMailOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  /** Signs the 7-day preview links the mails carry (PREVIEW_TOKEN_KEY). */
  previewTokens: PreviewTokens;
  appUrl: string;
  /** A mail that could not be queued after the report was stored: logged, never a failed request. */
  onMailError?: (error: unknown) => void;
}

/** A PIN made by the notify_vendor step, mailed to the product's contact (PRODUCT.md §2). */
export interface NewPin {
  pin: string;
  contactEmail: string;
}

/** The mail a report's steps send, each with a link to the page it is about. */
export function createReportMail({
  database,
  mailer,
  previewTokens,
  appUrl,
  onMailError,
}: ReportMailOptions) {
  const queries = createReportQueries(database.sql);
  const pins = createPinQueries(database.sql);

  async function mail(to: string | null, template: MailTemplate) {
    if (!to) return;
    try {
      await mailer.enqueue(to, template);
    } catch (error) {
      onMailError?.(error);
    }
  }

  /** An e-mail link to a report's preview page, carrying a 7-day token for that report and audience. */
  const previewUrl = (id: string, audience: "vendor" | "researcher") =>
    `${appUrl}${audience === "vendor" ? "/vdp/vulnerabilities" : "/researchers/reports"}/${id}/preview?token=${previewTokens.sign(id, audience, PREVIEW_LINK_SECONDS)}`;
  const reportUrl = (id: string) => previewUrl(id, "researcher");
  const pinUrl = (id: string) => `${appUrl}/database/report-preview/${id}/pin`;

  /** The researcher's words for a duplicate (issue 19): the original's public link, never a private title. */
  function duplicateSentence(row: ReportRow): string | null {
    const original = duplicateOf(row, "researcher");
    if (!original) return null;
    return original.public_path
      ? `Closed as a duplicate of ${original.title}: ${appUrl}${original.public_path}`
      : "Closed as a duplicate of an earlier report.";
  }

  /**
   * Who hears of the vendor's side of a report: the owning vendor's contact when the product has an
   * active program (a signed vendor link), else the PIN contact (the link to the PIN page).
   */
  async function vendorRecipient(row: ReportRow): Promise<{ to: string; name: string; url: string } | null> {
    if (hasActiveProgram(row)) {
      const vendor = await queries.vendorContact(row.product_vendor_id!);
      return vendor
        ? { to: vendor.contact_email, name: vendor.vendor_name, url: previewUrl(row.id, "vendor") }
        : null;
    }
    const contactEmail = await pins.pinContactEmail(row.id);
    return contactEmail ? { to: contactEmail, name: "", url: pinUrl(row.id) } : null;
  }

  /** Staff hear of a fix to verify: every staff account with its second factor on. */
  async function mailStaffOfFix(row: ReportRow) {
    const staffEmails = await queries.staffEmails();
    for (const to of staffEmails)
      await mail(to, {
        template: "report_fix_to_verify",
        reportTitle: row.title,
        productName: row.product_name,
        fixedVersion: row.fixed_version ?? "",
        fixUrl: row.fix_url,
        url: `${appUrl}/staff/reports/${row.id}`,
      });
  }

  return {
    /** The reporter hears that the report arrived. */
    async afterSubmission(row: ReportRow, email: string, name: string) {
      await mail(email, {
        template: "report_received",
        name,
        reportTitle: row.title,
        detail: null,
        url: reportUrl(row.id),
      });
    },

    /** After a vendor's or PIN contact's fix: the researcher and staff hear of it. */
    async afterFix(row: ReportRow) {
      await mail(row.researcher_email, {
        template: "report_fix_submitted",
        name: row.researcher_name ?? "",
        reportTitle: row.title,
        detail: row.fixed_version ? `Fixed version: ${row.fixed_version}` : null,
        url: reportUrl(row.id),
      });
      await mailStaffOfFix(row);
    },

    /**
     * E-mail after a staff transition, each with a link to the page it is about: the researcher hears
     * of in review, rejected, validated, fixed and published; the vendor's side (its contact, or the
     * PIN contact) of its notification, an insufficient fix and a verified one.
     */
    async afterTransition(row: ReportRow, action: ReportAction, note: string | null, pin: NewPin | null) {
      if (pin) {
        // PRODUCT.md §2: the private link and, in a separate e-mail, the PIN.
        await mail(pin.contactEmail, {
          template: "report_pin_notice",
          reportTitle: row.title,
          productName: row.product_name,
          deadline: isoOrNull(row.fix_deadline_at) ?? "",
          url: pinUrl(row.id),
        });
        await mail(pin.contactEmail, {
          template: "report_pin",
          reportTitle: row.title,
          productName: row.product_name,
          pin: pin.pin,
        });
      }
      const base = { name: row.researcher_name ?? "", reportTitle: row.title };
      if (action === "take_into_review") {
        await mail(row.researcher_email, {
          template: "report_in_review",
          ...base,
          detail: note,
          url: reportUrl(row.id),
        });
      } else if (action === "mark_fix_insufficient" || action === "verify_fix") {
        if (action === "verify_fix")
          await mail(row.researcher_email, {
            template: "report_fixed",
            ...base,
            detail: row.fixed_version ? `Fixed version: ${row.fixed_version}` : null,
            url: reportUrl(row.id),
          });
        const recipient = await vendorRecipient(row);
        if (recipient)
          await mail(recipient.to, {
            template: action === "verify_fix" ? "report_vendor_fixed" : "report_fix_insufficient",
            name: recipient.name,
            reportTitle: row.title,
            productName: row.product_name,
            detail: note,
            url: recipient.url,
          });
      } else if (action === "reject") {
        const label = REJECTION_REASONS.find((reason) => reason.value === row.rejection_reason)?.label;
        await mail(row.researcher_email, {
          template: "report_rejected",
          ...base,
          detail: [duplicateSentence(row) ?? label, note].filter(Boolean).join(" — ") || null,
          url: reportUrl(row.id),
        });
      } else if (action === "validate") {
        await mail(row.researcher_email, {
          template: "report_validated",
          ...base,
          detail: note,
          url: reportUrl(row.id),
        });
      } else if (action === "notify_vendor" && hasActiveProgram(row)) {
        const vendor = await queries.vendorContact(row.product_vendor_id!);
        await mail(vendor?.contact_email ?? null, {
          template: "report_vendor_notified",
          name: vendor?.vendor_name ?? "",
          reportTitle: row.title,
          productName: row.product_name,
          deadline: isoOrNull(row.fix_deadline_at) ?? "",
          url: previewUrl(row.id, "vendor"),
        });
      } else if ((action === "publish" || action === "publish_unpatched") && row.vulnerability_slug) {
        await mail(row.researcher_email, {
          template: "report_published",
          ...base,
          detail: note,
          url: `${appUrl}${publicPathOf(row, row.vulnerability_slug)}`,
        });
      }
    },

    /** The researcher hears of the CVE id staff recorded for the report (issue 19). */
    async afterCveRecorded(row: ReportRow) {
      if (!row.cve) return;
      await mail(row.researcher_email, {
        template: "report_cve_recorded",
        name: row.researcher_name ?? "",
        reportTitle: row.title,
        cve: row.cve,
        published: row.status === "published",
        url: reportUrl(row.id),
      });
    },

    /** The deadline job's mail to the vendor's side: its deadline is near, or has passed. */
    async deadline(
      row: ReportRow,
      template: "report_deadline_reminder" | "report_deadline_near" | "report_deadline_passed",
    ) {
      const recipient = await vendorRecipient(row);
      if (!recipient) return;
      await mail(recipient.to, {
        template,
        name: recipient.name,
        reportTitle: row.title,
        productName: row.product_name,
        deadline: isoOrNull(row.fix_deadline_at) ?? "",
        url: recipient.url,
      });
    },
  };
}

export type ReportMail = ReturnType<typeof createReportMail>;
