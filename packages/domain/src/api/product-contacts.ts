import { z } from "zod";
import { optionalEmail } from "../schemas/fields.ts";

/**
 * How staff reach the vendor of a product that runs no program (issue 19): the contact e-mail they
 * set, and every route to the vendor the data knows, to find it.
 */

/** Refused "Notify the vendor": nobody would be told, and the fix deadline must not start. */
export const NO_VENDOR_CONTACT_MESSAGE =
  "Nobody can be notified: this product runs no program and has no vendor contact e-mail. Set the contact first; the report waits until then.";

export const CONTACT_ROUTE_KINDS = [
  "plugin_site",
  "directory_page",
  "vendor_site",
  "security_txt",
  "author",
  "author_profile",
  "contributor",
] as const;

export const ContactRoute = z.object({
  kind: z.enum(CONTACT_ROUTE_KINDS),
  label: z.string(),
  /** Where to look; null for what is only a name (the directory's author). */
  url: z.string().nullable(),
  text: z.string(),
});
export type ContactRoute = z.infer<typeof ContactRoute>;

export const ProductContact = z
  .object({
    product: z.object({
      id: z.number().int(),
      platform: z.string(),
      kind: z.string(),
      slug: z.string(),
      name: z.string(),
      has_active_program: z.boolean(),
    }),
    /** The e-mail address staff set (or a vendor gave in a program form); null when none. */
    email: z.string().nullable(),
    /** True when "Notify the vendor" reaches someone: an active program, or a contact e-mail. */
    reachable: z.boolean(),
    routes: z.array(ContactRoute),
    /** Every change of the contact, newest first: the audit trail. */
    history: z.array(
      z.object({
        email: z.string().nullable(),
        previous_email: z.string().nullable(),
        changed_by: z.string(),
        changed_at: z.string(),
      }),
    ),
  })
  .meta({ id: "ProductContact" });
export type ProductContact = z.infer<typeof ProductContact>;

/** PUT /api/staff/products/{id}/contact: the address, or blank to remove it. */
export const ProductContactChange = z.object({ email: optionalEmail() }).meta({ id: "ProductContactChange" });
export type ProductContactChange = z.infer<typeof ProductContactChange>;
