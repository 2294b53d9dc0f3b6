import {
  InvitationAccountInput,
  InvitationPreview,
  SeatInvitationInput,
  SeatRoleInput,
  SessionUser,
  Team,
  TeamInvitation,
  TeamMember,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { clientInfoOf, signedInCaller } from "../../http/access.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { setSessionCookie } from "../auth/session-cookie.ts";
import type { TeamService } from "./service.ts";

const UserIdParams = z.strictObject({ userId: z.coerce.number().int().positive().max(2_147_483_647) });
const InvitationIdParams = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const TokenParams = z.strictObject({ token: z.string().min(1).max(100) });
/** Token mode's client asks for a personal access token instead of the session cookie (decision 021). */
const InvitationAccountBody = InvitationAccountInput.extend({ token: z.boolean().optional() });
const AccessToken = z.object({ token: z.string() });

/** Owners and admins only (PRODUCT.md §4): members get 403 from the access hook. */
const MANAGERS = { access: "vendor", capability: "manage-vendor" } as const;

/** Seats of the caller's vendor organisation, and the invitation links (issue 8). */
export const teamRoutes: FastifyPluginAsyncZod<{
  team: TeamService;
  secureCookies: boolean;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
}> = async (app, { team, secureCookies, reads }) => {
  const tags = ["vendor seats"];

  app.get(
    "/vendor/members",
    {
      schema: {
        tags,
        summary: "The organisation's seats, open invitations and seat usage (owners and admins)",
        response: { 200: Team },
      },
      config: MANAGERS,
    },
    (request) => team.listTeam(signedInCaller(request).user),
  );

  app.post(
    "/vendor/invitations",
    {
      schema: {
        tags,
        summary:
          "E-mails a single-use invitation to a seat, valid 7 days; replaces an open one to the address",
        body: SeatInvitationInput,
        response: { 201: TeamInvitation },
      },
      config: MANAGERS,
    },
    async (request, reply) =>
      reply.status(201).send(await team.invite(signedInCaller(request).user, request.body)),
  );

  app.delete(
    "/vendor/invitations/:id",
    {
      schema: {
        tags,
        summary: "Revokes an open invitation",
        params: InvitationIdParams,
        response: { 204: z.null() },
      },
      config: MANAGERS,
    },
    async (request, reply) => {
      await team.revokeInvitation(signedInCaller(request).user, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/vendor/members/:userId",
    {
      schema: {
        tags,
        summary: "Changes a seat's role; `owner` (by the owner) hands the organisation on",
        params: UserIdParams,
        body: SeatRoleInput,
        response: { 200: TeamMember },
      },
      config: MANAGERS,
    },
    (request) => team.changeRole(signedInCaller(request).user, request.params.userId, request.body.role),
  );

  app.delete(
    "/vendor/membership",
    {
      schema: {
        tags,
        summary: "Gives up the caller's own seat (any role but the owner's)",
        response: { 204: z.null() },
      },
      config: { access: "vendor" },
    },
    async (request, reply) => {
      await team.leave(signedInCaller(request).user);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/vendor/members/:userId",
    {
      schema: {
        tags,
        summary: "Removes a seat (never the owner's)",
        params: UserIdParams,
        response: { 204: z.null() },
      },
      config: MANAGERS,
    },
    async (request, reply) => {
      await team.removeMember(signedInCaller(request).user, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  reads.get(
    app,
    "/invitations/:token",
    {
      schema: {
        tags,
        summary: "What an invitation link offers: organisation, role, the invited address (masked)",
        params: TokenParams,
        response: { 200: InvitationPreview },
      },
      config: { access: "public" },
    },
    (request) => team.previewInvitation(request.params.token),
  );

  app.post(
    "/invitations/:token/accept",
    {
      schema: {
        tags,
        summary: "Accepts an invitation as the signed-in user (the invited address)",
        params: TokenParams,
        response: { 200: SessionUser },
      },
      config: { access: "user" },
    },
    (request) => team.accept(signedInCaller(request).user, request.params.token),
  );

  app.post(
    "/invitations/:token/account",
    {
      schema: {
        tags,
        summary:
          "Creates an account for the invited address, accepts the invitation and signs in; `token: true` answers a personal access token",
        params: TokenParams,
        body: InvitationAccountBody,
        response: { 201: z.union([SessionUser, AccessToken]) },
      },
      config: { access: "public", issuesToken: true },
    },
    async (request, reply) => {
      const { token: wantsToken, ...input } = request.body;
      const mode = wantsToken ? "token" : "session";
      const { secret, user } = await team.acceptWithNewAccount(
        request.params.token,
        input,
        clientInfoOf(request),
        mode,
      );
      if (mode === "token") return reply.status(201).send({ token: secret });
      setSessionCookie(reply, secret, secureCookies);
      return reply.status(201).send(user);
    },
  );
};
