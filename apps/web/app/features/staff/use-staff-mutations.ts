import type { ReportDetail, ReportTransitionRequest } from "@pressguard/domain";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { DEFAULT_ERROR_MESSAGE, messageOf } from "../../lib/errors.ts";
import type { CommentVisibility } from "../../lib/reports.ts";
import { toast } from "../../ui/toast.ts";
import { staffApi, staffKeys } from "./api.ts";

/** What staff read after each action (PRODUCT.md §2). */
const TRANSITION_DONE: Record<string, string> = {
  take_into_review: "The report is now in review.",
  reject: "The report was rejected.",
  validate: "The report is validated.",
  notify_vendor: "The vendor was notified; the fix deadline has started.",
  mark_fix_insufficient: "The fix was marked insufficient: the report waits for a fix again.",
  verify_fix: "The fix is verified.",
  publish: "The vulnerability is published.",
  publish_unpatched: "The vulnerability is published unpatched.",
};

/**
 * Moves a report through the lifecycle. The answer is the report as it is now, which replaces the
 * cached one; the queue lists are refetched. A refusal (409 for a state that no longer allows it,
 * 403) shows its message as an error toast; a 422 is left to the form that sent it.
 */
export function useReportTransition(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportTransitionRequest) => staffApi.transition(client, id, body),
    onSuccess: async (report: ReportDetail, body) => {
      queryClient.setQueryData(staffKeys.report(id), report);
      toast.success(TRANSITION_DONE[body.action] ?? "Saved.");
      await queryClient.invalidateQueries({ queryKey: staffKeys.reportLists() });
    },
    onError: async (error) => {
      if (isApiError(error) && error.status === 422) return;
      toast.error(messageOf(error) || DEFAULT_ERROR_MESSAGE);
      // Someone else moved the report meanwhile: show where it stands now.
      if (isApiError(error) && error.status === 409)
        await queryClient.invalidateQueries({ queryKey: staffKeys.report(id) });
    },
  });
}

export function useStaffComment(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, visibility }: { body: string; visibility: CommentVisibility }) =>
      staffApi.addComment(client, id, body, visibility),
    onSuccess: (report: ReportDetail) => {
      queryClient.setQueryData(staffKeys.report(id), report);
      toast.success("Comment added.");
    },
  });
}

/** Approves or rejects a lobby claim (decision 006); the claim lists are refetched either way. */
export function useDecideClaim() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason?: string }) =>
      reason === undefined ? staffApi.approveClaim(client, id) : staffApi.rejectClaim(client, id, reason),
    onSuccess: async (_answer, { reason }) => {
      toast.success(
        reason === undefined ? "Claim approved: the product is the vendor's program now." : "Claim rejected.",
      );
      await queryClient.invalidateQueries({ queryKey: [...staffKeys.all, "claims"] });
    },
  });
}
