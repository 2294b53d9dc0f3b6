import { VendorAccount } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import type { SessionUserBody } from "../auth/service.ts";

export interface VendorAccountBody {
  vendor_name: string;
  url: string | null;
  contact_email: string;
  contact_person: string;
  timezone: string;
  country: string | null;
  public_key: string;
  /** The account fields were saved by the vendor (`/vdp/create-account` done). */
  completed: boolean;
  /** The caller's seat: owners and admins may edit. */
  role: "owner" | "admin" | "member";
}

interface VendorRow {
  vendor_name: string;
  url: string | null;
  contact_email: string;
  contact_person: string;
  timezone: string;
  country: string | null;
  public_key: string;
  completed: boolean;
}

const ACCOUNT_EDITORS = new Set(["owner", "admin"]);

function seatOf(user: SessionUserBody) {
  if (!user.vendor) throw new AppError("forbidden");
  return { vendorId: user.vendor.id, role: user.vendor.role as VendorAccountBody["role"] };
}

/** The vendor account of spec §3 (decision 006): read by every member, written by owners and admins. */
export function createVendorAccountService(
  database: Database,
  options: { onPublicChange?: () => Promise<void> | void } = {},
) {
  async function read(vendorId: number): Promise<VendorRow> {
    const { rows } = await database.sql.query<VendorRow>(
      `select vendor_name, url, contact_email, contact_person, timezone, country, public_key::text,
         account_completed_at is not null as completed
       from vendors where id = $1`,
      [vendorId],
    );
    const row = rows[0];
    if (!row) throw new AppError("not_found", { message: "Vendor account not found." });
    return row;
  }

  return {
    async getAccount(user: SessionUserBody): Promise<VendorAccountBody> {
      const { vendorId, role } = seatOf(user);
      return { ...(await read(vendorId)), role };
    },

    async updateAccount(user: SessionUserBody, input: unknown): Promise<VendorAccountBody> {
      const { vendorId, role } = seatOf(user);
      if (!ACCOUNT_EDITORS.has(role))
        throw new AppError("forbidden", {
          message: "Only the account's owners and admins can change its settings.",
        });
      const result = VendorAccount.safeParse(input);
      if (!result.success) throw validationErrorOf(result.error.issues);
      const account = result.data;
      await database.sql.transaction(async (tx) => {
        await tx.query(
          `update vendors set vendor_name = $2, url = $3, contact_email = $4, contact_person = $5, timezone = $6,
             country = $7, account_completed_at = coalesce(account_completed_at, now())
           where id = $1`,
          [
            vendorId,
            account.vendor_name,
            account.url,
            account.contact_email,
            account.contact_person,
            account.timezone,
            account.country,
          ],
        );
        // The vendor's name is on its programs' public security policies.
        await bumpDataVersion(tx);
      });
      await options.onPublicChange?.();
      return { ...(await read(vendorId)), role };
    },
  };
}

export type VendorAccountService = ReturnType<typeof createVendorAccountService>;
