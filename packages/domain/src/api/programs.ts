import { z } from "zod";
import { ComponentKind } from "../enums/component-kinds.ts";
import { Plan } from "../enums/plans.ts";
import { PageQuery, Pagination } from "./pagination.ts";

/** The vendor's product API (spec §7, decision 006). */

/** Spec §4: the program list filters are fixed strings; anything else is a 422. */
const PROGRAM_FILTERS = ["all-active", "open-reports", "vdp-pending"] as const;
export type ProgramFilter = (typeof PROGRAM_FILTERS)[number];

export const ProgramListQuery = PageQuery.extend({
  filter: z
    .enum(PROGRAM_FILTERS, { error: `filter must be one of ${PROGRAM_FILTERS.join(", ")}.` })
    .default("all-active"),
});

export const LobbyQuery = PageQuery.extend({
  q: z.string().trim().max(200, "q must be at most 200 characters.").optional(),
});

export const ProductIdParams = z.object({ id: z.string() });

export const VendorProgram = z
  .object({
    id: z.number().int(),
    platform: z.string(),
    kind: ComponentKind,
    slug: z.string(),
    name: z.string(),
    version: z.string().nullable(),
    product_url: z.string().nullable(),
    description: z.string().nullable(),
    dependencies: z.string().nullable(),
    vendor_contact_email: z.string().nullable(),
    vendor_website_url: z.string().nullable(),
    plan: Plan,
    is_active: z.boolean(),
    is_lobby_product: z.boolean(),
    activated_at: z.string().nullable(),
    created_at: z.string(),
    fix_deadline_days: z.number().int(),
    /** Reports in validated, awaiting_fix or fix_pending. */
    open_reports: z.number().int(),
    /** Public vulnerabilities recorded against the product. */
    vulnerabilities: z.number().int(),
    /** The public security policy page of the product. */
    public_path: z.string(),
  })
  .meta({ id: "VendorProgram" });
export type VendorProgram = z.infer<typeof VendorProgram>;

export const ProgramPage = z
  .object({ data: z.array(VendorProgram), pagination: Pagination })
  .meta({ id: "VendorProgramPage" });
export type ProgramPage = z.infer<typeof ProgramPage>;

/** Spec §3 "Product detail counters" (decision 006 defines each). */
export const ProductDetails = z
  .object({
    active: z.number().int(),
    fixed: z.number().int(),
    fixedOnTime: z.number().int(),
    open: z.number().int(),
    pending: z.number().int(),
    reports: z.number().int(),
  })
  .meta({ id: "ProductDetails" });
export type ProductDetails = z.infer<typeof ProductDetails>;

const ProgramCounters = z.object({
  reports: z.number().int(),
  open: z.number().int(),
  fixed: z.number().int(),
  fixedOnTime: z.number().int(),
});

export const ProgramDetail = VendorProgram.extend({ counters: ProgramCounters }).meta({
  id: "VendorProgramDetail",
});
export type ProgramDetail = z.infer<typeof ProgramDetail>;

/** The Program form's values (spec §3 fields plus the plan). */
export const ProgramFormValues = z
  .object({
    kind: ComponentKind,
    version: z.string().nullable(),
    name: z.string(),
    product_url: z.string().nullable(),
    description: z.string().nullable(),
    dependencies: z.string().nullable(),
    vendor_contact_email: z.string().nullable(),
    slug: z.string(),
    vendor_website_url: z.string().nullable(),
    plan: Plan,
  })
  .meta({ id: "ProgramFormValues" });
export type ProgramFormValues = z.infer<typeof ProgramFormValues>;

const LobbyProduct = z.object({
  id: z.number().int(),
  platform: z.string(),
  kind: z.string(),
  slug: z.string(),
  name: z.string(),
  product_url: z.string().nullable(),
  vendor_website_url: z.string().nullable(),
  author: z.string().nullable(),
  active_installs: z.number().int().nullable(),
  vulnerabilities: z.number().int(),
  /** The product's URL domain matches the vendor's website or a verified e-mail: a claim is immediate. */
  domain_match: z.boolean(),
  /** This vendor's claim on it, if any. */
  claim_status: z.enum(["pending", "rejected"]).nullable(),
});
export type LobbyProduct = z.infer<typeof LobbyProduct>;

export const LobbyPage = z
  .object({ data: z.array(LobbyProduct), pagination: Pagination })
  .meta({ id: "LobbyProductPage" });
export type LobbyPage = z.infer<typeof LobbyPage>;

export const ActivateProductBody = z.object({
  is_lobby_product: z.boolean({ error: "is_lobby_product must be true or false." }),
});

export const ActivationAnswer = z
  .object({ status: z.enum(["success", "pending"]), message: z.string() })
  .meta({ id: "ActivationAnswer" });
export type ActivationAnswer = z.infer<typeof ActivationAnswer>;

/** Decision 006: a CSV import is at most 1 MB (and 1,000 rows, which only the API counts). */
export const CSV_IMPORT_MAX_BYTES = 1024 * 1024;
export const CSV_IMPORT_TOO_LARGE_MESSAGE = "The file is larger than 1 MB.";

/** `POST /api/products/import-csv`'s multipart body: the CSV file, in a field named `file`. */
export const CsvImportUpload = z.object({
  file: z.file({ error: "Choose a CSV file first." }).max(CSV_IMPORT_MAX_BYTES, CSV_IMPORT_TOO_LARGE_MESSAGE),
});
export type CsvImportUpload = z.infer<typeof CsvImportUpload>;

export const CsvImportAnswer = z
  .object({
    /** Data rows read (the header excluded). */
    rows: z.number().int(),
    created: z.number().int(),
    /** Each refused row: its line in the file (the header is line 1) and what is wrong. */
    errors: z.array(z.object({ line: z.number().int(), messages: z.array(z.string()) })),
  })
  .meta({ id: "CsvImportAnswer" });
export type CsvImportAnswer = z.infer<typeof CsvImportAnswer>;

const CLAIM_STATUSES = ["pending", "approved", "rejected"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export const ProductClaim = z
  .object({
    id: z.number().int(),
    status: z.enum(CLAIM_STATUSES),
    reason: z.string().nullable(),
    created_at: z.string(),
    decided_at: z.string().nullable(),
    product: z.object({
      id: z.number().int(),
      platform: z.string(),
      kind: z.string(),
      slug: z.string(),
      name: z.string(),
      product_url: z.string().nullable(),
      vendor_website_url: z.string().nullable(),
      /** Set when someone owns it now (an approved claim, or another vendor's). */
      vendor_id: z.number().int().nullable(),
    }),
    vendor: z.object({
      id: z.number().int(),
      vendor_name: z.string(),
      url: z.string().nullable(),
      contact_email: z.string(),
    }),
    requested_by: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  })
  .meta({ id: "ProductClaim" });
export type ProductClaim = z.infer<typeof ProductClaim>;

export const ProductClaimPage = z
  .object({ data: z.array(ProductClaim), pagination: Pagination })
  .meta({ id: "ProductClaimPage" });

export const ClaimListQuery = PageQuery.extend({
  status: z
    .enum(CLAIM_STATUSES, { error: "status must be pending, approved or rejected." })
    .default("pending"),
});

export const RejectClaimBody = z.object({
  reason: z
    .string({ error: "A reason is required." })
    .trim()
    .min(1, "A reason is required.")
    .max(1000, "The reason may not be greater than 1000 characters."),
});
