import { z } from "zod";

/** A program's disclosure policy as its vendor edits it (issue 20). */
export const ProgramPolicy = z
  .object({
    /** The vendor's text; null when the generated policy (`template`) is published. */
    policy_markdown: z.string().nullable(),
    /** The generated policy, from the program's current values: the start of an edit, and "reset". */
    template: z.string(),
    policy_updated_at: z.string().nullable(),
    /** The single point of contact; null: `default_contact_email` is used. */
    security_contact_email: z.string().nullable(),
    /** The program's vendor contact e-mail (or the vendor account's). */
    default_contact_email: z.string().nullable(),
    /** YYYY-MM-DD: security updates until this day; null when none is declared. */
    support_ends_on: z.string().nullable(),
  })
  .meta({ id: "ProgramPolicy" });
export type ProgramPolicy = z.infer<typeof ProgramPolicy>;

/** A notice a vendor sent to its product's users (CRA Art. 14(8)). */
export const ProductUserNotice = z
  .object({
    id: z.number().int(),
    report_id: z.string().nullable(),
    report_title: z.string().nullable(),
    message: z.string(),
    sent_by: z.string().nullable(),
    /** Watchlist owners the e-mail went to. */
    recipients: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "ProductUserNotice" });
export type ProductUserNotice = z.infer<typeof ProductUserNotice>;

export const ProductUserNoticeList = z
  .object({
    data: z.array(ProductUserNotice),
    /** Users watching the product now: who a notice would reach. */
    watchers: z.number().int(),
    /** Notices that can still be sent today (a rolling 24 hours). */
    remaining_today: z.number().int(),
    /** The program's reports a notice may be about (newest first). */
    reports: z.array(z.object({ id: z.string(), title: z.string() })),
  })
  .meta({ id: "ProductUserNoticeList" });
export type ProductUserNoticeList = z.infer<typeof ProductUserNoticeList>;
