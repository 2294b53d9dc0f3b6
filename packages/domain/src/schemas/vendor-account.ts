import { z } from "zod";
import { CountryCode } from "../enums/countries.ts";
import { optionalUrl, requiredEmail, requiredText } from "./fields.ts";

export const COUNTRY_MESSAGE = "Country must be one of the listed countries.";
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
  /** ISO 3166-1 alpha-2 code of the vendor's country; optional. */
  country: z
    .union([CountryCode, z.literal(""), z.null()], { error: COUNTRY_MESSAGE })
    .optional()
    .transform((value) => (value ? value : null)),
});
export type VendorAccount = z.infer<typeof VendorAccount>;
export type VendorAccountInput = z.input<typeof VendorAccount>;
