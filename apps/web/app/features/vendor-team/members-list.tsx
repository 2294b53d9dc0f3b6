import { SeatRoleLabels, type TeamMember, type VendorRole } from "@pressguard/domain";
import { formatDay } from "./dates.ts";
import type { useTeamMutations } from "./use-team-mutations.ts";

interface Viewer {
  id: number | undefined;
  role: VendorRole;
}

/** The roles the viewer may give this seat: admins never touch the owner, only the owner hands on ownership. */
function rolesFor(member: TeamMember, viewer: Viewer): VendorRole[] {
  if (member.role === "owner") return [];
  return viewer.role === "owner" ? ["admin", "member", "owner"] : ["admin", "member"];
}

export function MembersList({
  members,
  viewer,
  mutations,
}: {
  members: readonly TeamMember[];
  viewer: Viewer;
  mutations: ReturnType<typeof useTeamMutations>;
}) {
  const { changeRole, remove } = mutations;
  const busy = changeRole.isPending || remove.isPending;

  function onRole(member: TeamMember, role: VendorRole) {
    if (role === member.role) return;
    if (
      role === "owner" &&
      !window.confirm(
        `Make ${member.name} the owner? You will become an admin, and only the new owner can hand ownership on.`,
      )
    )
      return;
    changeRole.mutate({ userId: member.user_id, role, name: member.name });
  }

  function onRemove(member: TeamMember) {
    const self = member.user_id === viewer.id;
    const question = self
      ? "Leave this organisation? You lose access to its reports."
      : `Remove ${member.name}? They lose access to your organisation's reports at once.`;
    if (window.confirm(question)) remove.mutate({ userId: member.user_id, name: member.name });
  }

  return (
    <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Members">
      {members.map((member) => {
        const roles = rolesFor(member, viewer);
        const selectId = `seat-role-${member.user_id}`;
        return (
          <li key={member.user_id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
            <div className="min-w-0 flex-1 basis-56">
              <p className="truncate font-medium text-slate-900">
                {member.name}
                {member.user_id === viewer.id && (
                  <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>
                )}
              </p>
              <p className="truncate text-sm text-slate-600">{member.email}</p>
            </div>
            <div className="text-xs text-slate-500">
              <span className="rounded-full bg-lime-100 px-2 py-0.5 font-medium text-lime-900">Active</span>
              <span className="ml-2">Joined {formatDay(member.joined_at)}</span>
            </div>
            <div className="flex items-center gap-2">
              {roles.length === 0 ? (
                <span className="rounded-md bg-slate-100 px-3 py-1.5 text-sm font-medium text-slate-800">
                  {SeatRoleLabels[member.role]}
                </span>
              ) : (
                <>
                  <label htmlFor={selectId} className="sr-only">
                    Role of {member.name}
                  </label>
                  <select
                    id={selectId}
                    className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
                    value={member.role}
                    disabled={busy}
                    onChange={(event) => onRole(member, event.target.value as VendorRole)}
                  >
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {role === "owner" ? "Owner (hand on ownership)" : SeatRoleLabels[role]}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="btn-secondary px-3 py-1.5"
                    disabled={busy}
                    onClick={() => onRemove(member)}
                    aria-label={`Remove ${member.name}`}
                  >
                    Remove
                  </button>
                </>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
