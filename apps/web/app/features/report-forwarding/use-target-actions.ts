import type { ForwardTargetWithSecret } from "@pressguard/domain";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { toast } from "../../ui/toast.ts";
import { deliveriesKey, forwardingApi, targetsKey } from "./api.ts";

type Action = "resend-confirmation" | "disable" | "enable" | "test" | "delete";

const SUCCESS: Record<Action, string> = {
  "resend-confirmation": "We sent a new confirmation link.",
  disable: "Forwarding to this target is off.",
  enable: "Forwarding to this target is on again.",
  test: "Test event sent. Its delivery shows in the log below.",
  delete: "The target was deleted.",
};

/** The buttons of one target, each ending in a toast and fresh lists. */
export function useTargetActions(targetId: number, onSecret: (created: ForwardTargetWithSecret) => void) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: targetsKey });
    await queryClient.invalidateQueries({ queryKey: deliveriesKey(targetId) });
  };

  const act = useMutation({
    mutationFn: (action: Action) =>
      action === "delete"
        ? forwardingApi.remove(client, targetId)
        : forwardingApi.action(client, targetId, action),
    onSuccess: async (_result, action) => {
      toast.success(SUCCESS[action]);
      await refresh();
    },
    onError: (error) => {
      toast.error(messageOf(error));
    },
  });
  const rotate = useMutation({
    mutationFn: () => forwardingApi.rotateSecret(client, targetId),
    onSuccess: async (result) => {
      onSecret(result);
      await refresh();
    },
    onError: (error) => {
      toast.error(messageOf(error));
    },
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: number) => forwardingApi.redeliver(client, deliveryId),
    onSuccess: async () => {
      toast.success("Sent again. The new delivery shows at the top of the log.");
      await refresh();
    },
    onError: (error) => {
      toast.error(messageOf(error));
    },
  });
  return { act, rotate, redeliver, busy: act.isPending || rotate.isPending };
}
