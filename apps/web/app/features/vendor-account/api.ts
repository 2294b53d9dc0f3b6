import type { VendorAccount } from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api/request.ts";

/** `GET /vendor/account` (decision 006): the account fields, whether saved once, the reader's role. */
export interface VendorAccountAnswer {
  vendor_name: string | null;
  url: string | null;
  contact_email: string | null;
  contact_person: string | null;
  timezone: string | null;
  country: string | null;
  public_key: string | null;
  completed: boolean;
  role: "owner" | "admin" | "member" | string;
}

export const VENDOR_ACCOUNT_FAILURE = "Error fetching the vendor account";

export const vendorAccountApi = {
  get: (client: ApiClient) => client.request<VendorAccountAnswer>("/vendor/account"),
  update: (client: ApiClient, body: VendorAccount) =>
    client.request<VendorAccountAnswer>("/vendor/account", { method: "PUT", body }),
};

export const vendorAccountKey = ["vendor-account"] as const;

export function vendorAccountQuery(client: ApiClient) {
  return queryOptions({
    queryKey: vendorAccountKey,
    queryFn: () => vendorAccountApi.get(client),
    staleTime: 0,
    retry: false,
  });
}

/** Owners and admins change the account; members read it (PRODUCT.md §4). */
export function canEditAccount(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin";
}
