import type { VendorRole } from "@pressguard/domain";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { toast } from "../../ui/toast.ts";
import { teamApi, teamKey } from "./api.ts";

/**
 * The seat changes of the Seats page, each ending in a toast and a fresh list. A change to the
 * viewer's own seat (handing ownership on, leaving) reloads the page, whose guards then decide.
 */
export function useTeamMutations(viewerId: number | undefined) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: teamKey });
  const options = <T>(success: (variables: T) => string, reloadsWhen?: (variables: T) => boolean) => ({
    onSuccess: async (_result: unknown, variables: T) => {
      toast.success(success(variables));
      if (reloadsWhen?.(variables)) window.location.reload();
      else await refresh();
    },
    onError: (error: unknown) => {
      toast.error(messageOf(error));
    },
  });

  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: number; role: VendorRole; name: string }) =>
      teamApi.changeRole(client, userId, role),
    ...options<{ userId: number; role: VendorRole; name: string }>(
      ({ role, name }) =>
        role === "owner"
          ? `${name} is now the owner.`
          : `${name} is now ${role === "admin" ? "an admin" : "a member"}.`,
      ({ role, userId }) => role === "owner" || userId === viewerId,
    ),
  });
  const remove = useMutation({
    mutationFn: ({ userId }: { userId: number; name: string }) => teamApi.remove(client, userId),
    ...options<{ userId: number; name: string }>(
      ({ name }) => `${name} no longer has a seat.`,
      ({ userId }) => userId === viewerId,
    ),
  });
  const revoke = useMutation({
    mutationFn: ({ id }: { id: number; email: string }) => teamApi.revokeInvitation(client, id),
    ...options<{ id: number; email: string }>(({ email }) => `The invitation to ${email} was revoked.`),
  });
  return { changeRole, remove, revoke };
}
