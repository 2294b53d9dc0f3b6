import { z } from "zod";

/** The development mailbox (`GET /api/dev/mail`): what the product would have sent, newest first. */
export const MailboxEntry = z.object({
  id: z.number().int(),
  template: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  status: z.string(),
  created_at: z.string(),
});
export type MailboxEntry = z.infer<typeof MailboxEntry>;
export const Mailbox = z.object({ data: z.array(MailboxEntry) });
export type Mailbox = z.infer<typeof Mailbox>;

/** `GET /api/v1/embed/vendors/{public_key}`: the vendor's embeddable report form. */
export const EmbedVendor = z
  .object({
    vendor_name: z.string(),
    programs: z.array(
      z.object({ id: z.number().int(), kind: z.string(), slug: z.string(), name: z.string() }),
    ),
    frame_ancestors: z.array(z.string()),
  })
  .meta({ id: "EmbedVendor" });
export type EmbedVendor = z.infer<typeof EmbedVendor>;
