import { VendorRole } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { useIdentity } from "../../lib/identity.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Panel } from "../../ui/page-header.tsx";
import { TEAM_FAILURE, teamQuery } from "./api.ts";
import { InvitationsList } from "./invitations-list.tsx";
import { InviteForm } from "./invite-form.tsx";
import { MembersList } from "./members-list.tsx";
import { SeatUsageBar } from "./seat-usage.tsx";
import { useTeamMutations } from "./use-team-mutations.ts";

/** The Seats tab (PRODUCT.md §4): seat usage, the invitation form, members and open invitations. */
export function SeatsPanel() {
  const client = useApiClient();
  const user = useIdentity().user;
  const viewerId = typeof user?.id === "number" ? user.id : undefined;
  const team = useQuery(teamQuery(client));
  const mutations = useTeamMutations(viewerId);
  if (team.isError) return <LoadError message={TEAM_FAILURE} />;
  if (!team.data) return <Panel>Loading…</Panel>;
  const { members, invitations, seats } = team.data;
  const viewer = { id: viewerId, role: VendorRole.catch("member").parse(user?.vendor?.role) };

  return (
    <div className="space-y-6">
      <Panel>
        <h2 className="text-lg font-semibold text-slate-900">Invite a colleague</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Members read and handle reports; admins also manage seats, the subscription and report forwarding.
          The e-mailed link works once, for 7 days.
        </p>
        <SeatUsageBar seats={seats} />
        <div className="mt-5">
          <InviteForm full={seats.used >= seats.limit} />
        </div>
      </Panel>
      <Panel>
        <h2 className="mb-4 text-lg font-semibold text-slate-900">Members</h2>
        <MembersList members={members} viewer={viewer} mutations={mutations} />
      </Panel>
      <Panel>
        <h2 className="mb-4 text-lg font-semibold text-slate-900">Open invitations</h2>
        <InvitationsList invitations={invitations} mutations={mutations} />
      </Panel>
    </div>
  );
}
