import type { ActivationAnswer } from "@pressguard/domain";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRevalidator } from "react-router";
import { setActivationModalShown } from "../../lib/activation-modal-flag.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { toast } from "../../ui/toast.ts";
import { programsApi } from "./api.ts";
import { resetProgramData } from "./cache.ts";

/**
 * Shows the answer of an activation as a toast (spec §7: "status and message, shown as a success or
 * error toast"): a success, a claim under review, or the API's error envelope.
 */
export function toastActivation(result: ActivationAnswer | { status: "error"; message: string }) {
  if (result.status === "error") toast.error(result.message);
  else if (result.status === "pending") toast.info(result.message);
  else toast.success(result.message);
}

/**
 * Everything that changes the product list ends the same way (spec §4): the cached project data
 * goes, and the vendor layout reloads the user so the Programs menu points at the right list.
 */
export function useProgramListChanged() {
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  return async () => {
    await resetProgramData(queryClient);
    void revalidator.revalidate();
  };
}

/**
 * Activates a pending program, or claims a lobby product (`isLobbyProduct`). Spec §4: the flag
 * `is_lobby_product` travels with it, the activation modal is hidden afterwards and the cached single
 * product is cleared.
 */
export function useActivateProgram() {
  const client = useApiClient();
  const changed = useProgramListChanged();
  return useMutation({
    mutationFn: ({ id, isLobbyProduct }: { id: number | string; isLobbyProduct: boolean }) =>
      programsApi.activate(client, id, isLobbyProduct),
    onSuccess: async (result) => {
      toastActivation(result);
      // A claim under review activates nothing yet: the modal stays until a program is active.
      if (result.status === "success") setActivationModalShown(false);
      await changed();
    },
    onError: (error) => {
      toast.error(messageOf(error));
    },
  });
}
