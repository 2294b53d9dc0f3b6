import { z } from "zod";
import { optionalUrl, requiredEmail, requiredText } from "./fields.ts";

export const TIMEZONE_MESSAGE = "Timezone must be a valid time zone.";

/** An IANA time zone name the runtime knows ("Europe/Tallinn", "UTC"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The vendor account settings (spec §3 "Vendor account", validation §5 "Account"). */
export const VendorAccount = z.object({
  vendor_name: requiredText("Vendor name is required."),
  url: optionalUrl(),
  contact_email: requiredEmail("Vendor email is required."),
  contact_person: requiredText("Person of contact is required."),
  timezone: requiredText("Timezone is required.").refine(isTimeZone, { error: TIMEZONE_MESSAGE }),
});
export type VendorAccount = z.infer<typeof VendorAccount>;
export type VendorAccountInput = z.input<typeof VendorAccount>;
