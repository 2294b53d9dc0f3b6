import { OwnResearcherProfile, ResearcherProfile } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { signedInCaller } from "../../http/access.ts";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";
import type { ResearcherProfileService } from "./service.ts";

/** Validated by the shared ResearcherProfile schema in the service, with its messages. */
const ResearcherProfileInput = bodyCheckedByService(ResearcherProfile, { id: "ResearcherProfileFields" });

export const researcherProfileRoutes: FastifyPluginAsyncZod<{ profiles: ResearcherProfileService }> = async (
  app,
  { profiles },
) => {
  const tags = ["researcher profile"];
  app.get(
    "/researcher/profile",
    {
      schema: {
        tags,
        summary: "The caller's researcher profile",
        response: { 200: OwnResearcherProfile },
      },
      config: { access: "researcher" },
    },
    (request) => {
      return profiles.getProfile(signedInCaller(request).user);
    },
  );

  app.put(
    "/researcher/profile",
    {
      schema: {
        tags,
        summary: "Saves the caller's public researcher profile; the first save completes it",
        body: ResearcherProfileInput,
        response: { 200: OwnResearcherProfile },
      },
      config: { access: "researcher" },
    },
    (request) => {
      return profiles.updateProfile(signedInCaller(request).user, request.body);
    },
  );
};
