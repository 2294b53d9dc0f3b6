import { type SessionUser, VendorAccount } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { createVendorAccountQueries, type VendorAccountRow } from "./account-queries.ts";

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

const ACCOUNT_EDITORS = new Set(["owner", "admin"]);

function seatOf(user: SessionUser) {
  if (!user.vendor) throw new AppError("forbidden");
  return { vendorId: user.vendor.id, role: user.vendor.role as VendorAccountBody["role"] };
}

/** The vendor account of spec §3 (decision 006): read by every member, written by owners and admins. */
export function createVendorAccountService({
  database,
  onPublicChange,
}: {
  database: Database;
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
}) {
  const queries = createVendorAccountQueries(database.sql);

  async function read(vendorId: number): Promise<VendorAccountRow> {
    const row = await queries.findAccount(vendorId);
    if (!row) throw new AppError("not_found", { message: "Vendor account not found." });
    return row;
  }

  return {
    async getAccount(user: SessionUser): Promise<VendorAccountBody> {
      const { vendorId, role } = seatOf(user);
      return { ...(await read(vendorId)), role };
    },

    async updateAccount(user: SessionUser, input: unknown): Promise<VendorAccountBody> {
      const { vendorId, role } = seatOf(user);
      if (!ACCOUNT_EDITORS.has(role))
        throw new AppError("forbidden", {
          message: "Only the account's owners and admins can change its settings.",
        });
      const result = VendorAccount.safeParse(input);
      if (!result.success) throw validationErrorOf(result.error.issues);
      const account = result.data;
      await database.sql.transaction(async (tx) => {
        await queries.updateAccount(vendorId, account, tx);
        // The vendor's name is on its programs' public security policies.
        await bumpDataVersion(tx);
      });
      await onPublicChange?.();
      return { ...(await read(vendorId)), role };
    },
  };
}

export type VendorAccountService = ReturnType<typeof createVendorAccountService>;
