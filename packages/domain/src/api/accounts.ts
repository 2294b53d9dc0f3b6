import { z } from "zod";

/** `GET /researcher/profile` (decision 010): the caller's own profile, and whether it was saved once. */
export const OwnResearcherProfile = z
  .object({
    uuid: z.string(),
    display_name: z.string(),
    country: z.string().nullable(),
    website: z.string().nullable(),
    github: z.string().nullable(),
    x: z.string().nullable(),
    mastodon: z.string().nullable(),
    linkedin: z.string().nullable(),
    bio: z.string().nullable(),
    /** Saved once through the profile form (`/researchers/create` done). */
    completed: z.boolean(),
  })
  .meta({ id: "OwnResearcherProfile" });
export type OwnResearcherProfile = z.infer<typeof OwnResearcherProfile>;

/** `GET /vendor/account` (decision 006): the account fields, whether saved once, the reader's role. */
export const VendorAccountAnswer = z
  .object({
    vendor_name: z.string(),
    url: z.string().nullable(),
    contact_email: z.string(),
    contact_person: z.string(),
    timezone: z.string(),
    country: z.string().nullable(),
    public_key: z.string(),
    completed: z.boolean(),
    role: z.enum(["owner", "admin", "member"]),
  })
  .meta({ id: "VendorAccount" });
export type VendorAccountAnswer = z.infer<typeof VendorAccountAnswer>;
