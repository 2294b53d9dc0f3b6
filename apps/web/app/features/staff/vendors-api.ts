import type { Page } from "@pressguard/domain";
import {
  type StaffPlanChange,
  type StaffPlanChangeResult,
  type StaffVendor,
  subscriptionPlanOf,
} from "@pressguard/domain";
import { infiniteQueryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { pageFromUrl } from "../../lib/api/page.ts";
import type { ApiClient } from "../../lib/api/request.ts";
import { toast } from "../../ui/toast.ts";

/** Staff vendor search and hand plan changes (decision 011). */
const staffVendorsApi = {
  findVendors: (client: ApiClient, search: string, page: number) =>
    client.request<Page<StaffVendor>>("/staff/vendors", { query: { q: search || undefined, page } }),
  changePlan: (client: ApiClient, id: number, body: StaffPlanChange) =>
    client.request<StaffPlanChangeResult>(`/staff/vendors/${id}/plan`, { method: "POST", body }),
};

const vendorListsKey = ["staff", "vendors"] as const;

export function staffVendorListQuery(client: ApiClient, search: string) {
  return infiniteQueryOptions({
    queryKey: [...vendorListsKey, search],
    queryFn: ({ pageParam }) => staffVendorsApi.findVendors(client, search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<StaffVendor>) => pageFromUrl(last.pagination.next_page_url),
    staleTime: 0,
    retry: false,
  });
}

/** Changes a vendor's plan; the vendor lists are refetched. A refusal is left to the form. */
export function useStaffPlanChange() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: StaffPlanChange }) =>
      staffVendorsApi.changePlan(client, id, change),
    onSuccess: async (result) => {
      const moved = `${result.vendor.vendor_name} is on the ${subscriptionPlanOf(result.vendor.plan).label} plan`;
      toast.success(
        result.invoice ? `${moved}; invoice ${result.invoice.number} was recorded.` : `${moved}.`,
      );
      await queryClient.invalidateQueries({ queryKey: vendorListsKey });
    },
  });
}
