import type { OwnResearcherProfile, ResearcherProfile } from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api/request.ts";

export const RESEARCHER_PROFILE_FAILURE = "Error fetching your researcher profile";

export const researcherProfileApi = {
  get: (client: ApiClient) => client.request<OwnResearcherProfile>("/researcher/profile"),
  update: (client: ApiClient, body: ResearcherProfile) =>
    client.request<OwnResearcherProfile>("/researcher/profile", { method: "PUT", body }),
};

export const researcherProfileKey = ["researcher-profile"] as const;

export function researcherProfileQuery(client: ApiClient) {
  return queryOptions({
    queryKey: researcherProfileKey,
    queryFn: () => researcherProfileApi.get(client),
    staleTime: 0,
    retry: false,
  });
}

/** The public page of a researcher (decision 007: a static page of the database). */
export function publicProfilePath(uuid: string): string {
  return `/database/researchers/${encodeURIComponent(uuid)}`;
}
