import { SeatRoleLabels, type TeamInvitation } from "@pressguard/domain";
import { formatDay } from "./dates.ts";
import type { useTeamMutations } from "./use-team-mutations.ts";

export function InvitationsList({
  invitations,
  mutations,
}: {
  invitations: readonly TeamInvitation[];
  mutations: ReturnType<typeof useTeamMutations>;
}) {
  const { revoke } = mutations;
  if (invitations.length === 0) return <p className="text-sm text-slate-600">No open invitations.</p>;
  return (
    <ul
      className="divide-y divide-slate-200 rounded-md border border-slate-200"
      aria-label="Open invitations"
    >
      {invitations.map((invitation) => (
        <li key={invitation.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <div className="min-w-0 flex-1 basis-56">
            <p className="truncate font-medium text-slate-900">{invitation.email}</p>
            <p className="text-sm text-slate-600">{SeatRoleLabels[invitation.role]}</p>
          </div>
          <div className="text-xs text-slate-500">
            {invitation.status === "expired" ? (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-900">
                Expired
              </span>
            ) : (
              <span className="rounded-full bg-sky-100 px-2 py-0.5 font-medium text-sky-900">Invited</span>
            )}
            <span className="ml-2">
              {invitation.status === "expired" ? "Expired" : "Expires"} {formatDay(invitation.expires_at)}
            </span>
          </div>
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate({ id: invitation.id, email: invitation.email })}
            aria-label={`Revoke the invitation to ${invitation.email}`}
          >
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}
