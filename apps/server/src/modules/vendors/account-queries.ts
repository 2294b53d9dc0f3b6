import type { VendorAccount } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

export interface VendorAccountRow {
  vendor_name: string;
  url: string | null;
  contact_email: string;
  contact_person: string;
  timezone: string;
  country: string | null;
  public_key: string;
  completed: boolean;
}

/** The vendor account's SQL (spec §3, decision 006). */
export function createVendorAccountQueries(sql: SqlRunner) {
  return {
    async findAccount(vendorId: number, tx: SqlRunner = sql): Promise<VendorAccountRow | null> {
      const { rows } = await tx.query<VendorAccountRow>(
        `select vendor_name, url, contact_email, contact_person, timezone, country, public_key::text,
           account_completed_at is not null as completed
         from vendors where id = $1`,
        [vendorId],
      );
      return rows[0] ?? null;
    },

    /** Saves the account fields; the first save completes the account. */
    async updateAccount(vendorId: number, account: VendorAccount, tx: SqlRunner = sql): Promise<void> {
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
    },
  };
}
