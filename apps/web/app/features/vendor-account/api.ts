import type { VendorAccount, VendorAccountAnswer } from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api/request.ts";

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
