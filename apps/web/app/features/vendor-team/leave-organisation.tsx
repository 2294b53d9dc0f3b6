import { useMutation } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { useIdentity } from "../../lib/identity.ts";
import { toast } from "../../ui/toast.ts";
import { teamApi } from "./api.ts";

/**
 * Account settings: a member or an admin gives up their own seat (the owner hands the organisation
 * on first, on the Seats tab). The page then reloads to the root redirect, which knows the new roles.
 */
export function LeaveOrganisation() {
  const client = useApiClient();
  const vendor = useIdentity().user?.vendor;
  const leave = useMutation({
    mutationFn: () => teamApi.leave(client),
    onSuccess: () => window.location.assign("/"),
    onError: (error: unknown) => {
      toast.error(messageOf(error));
    },
  });
  if (!vendor || vendor.role === "owner") return null;
  const name = typeof vendor.name === "string" && vendor.name ? vendor.name : "this organisation";

  function onLeave() {
    if (window.confirm(`Leave ${name}? You lose access to its reports and programs at once.`)) leave.mutate();
  }

  return (
    <section aria-labelledby="leave-organisation-heading" className="mt-10 space-y-3">
      <h2 id="leave-organisation-heading" className="text-lg font-semibold text-slate-900">
        Leave the organisation
      </h2>
      <p className="text-sm text-slate-600">
        Give up your seat in {name}. An owner or admin can invite you again later.
      </p>
      <button
        type="button"
        onClick={onLeave}
        disabled={leave.isPending}
        className="rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60"
      >
        Leave {name}
      </button>
    </section>
  );
}
