import type {
  InvitableRole,
  SeatInvitationInput,
  Team,
  TeamInvitation,
  TeamMember,
  VendorRole,
} from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api/request.ts";
import type { SessionUser } from "../../lib/session-user.ts";

/** The seats API (issue 8): the organisation's seats for owners and admins, and the invitation links. */
export const teamApi = {
  list: (client: ApiClient) => client.request<Team>("/vendor/members"),
  invite: (client: ApiClient, body: SeatInvitationInput) =>
    client.request<TeamInvitation>("/vendor/invitations", { method: "POST", body }),
  revokeInvitation: (client: ApiClient, id: number) =>
    client.request<null>(`/vendor/invitations/${id}`, { method: "DELETE" }),
  changeRole: (client: ApiClient, userId: number, role: VendorRole) =>
    client.request<TeamMember>(`/vendor/members/${userId}`, { method: "PUT", body: { role } }),
  remove: (client: ApiClient, userId: number) =>
    client.request<null>(`/vendor/members/${userId}`, { method: "DELETE" }),
  /** The caller gives up their own seat (not the owner). */
  leave: (client: ApiClient) => client.request<null>("/vendor/membership", { method: "DELETE" }),
  accept: (client: ApiClient, token: string) =>
    client.request<SessionUser>(`/invitations/${encodeURIComponent(token)}/accept`, { method: "POST" }),
};

/**
 * Creates the invited account and signs it in: called through the auth client's `signInWith`,
 * which asks for a token in token mode (decision 021).
 */
export const invitationAccountPath = (token: string) => `/invitations/${encodeURIComponent(token)}/account`;

export const teamKey = ["vendor-team"] as const;

export function teamQuery(client: ApiClient) {
  return queryOptions({ queryKey: teamKey, queryFn: () => teamApi.list(client), staleTime: 0, retry: false });
}

export const TEAM_FAILURE = "Error fetching the seats of your organisation";

export const INVITABLE_ROLES: readonly InvitableRole[] = ["member", "admin"];
