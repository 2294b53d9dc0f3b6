import type { APIRequestContext } from "@playwright/test";

/** Pages of the public database checked for their JavaScript weight and accessibility. */
export const VULNERABILITY_PAGE =
  "/database/wordpress/plugin/contact-form-7/vulnerability/contact-form-7-5-9-4-unauthenticated-open-redirect-953be831";
export const PRODUCT_PAGE = "/database/wordpress/plugin/contact-form-7/vulnerabilities/vdp";
export const STATISTICS_PAGE = "/database/statistics/wordpress";

/** The profile of the all-time leader of the seed data (a real credited researcher). */
export async function researcherProfilePath(request: APIRequestContext): Promise<string> {
  const leaderboard = await (await request.get("/api/v1/leaderboard/all-time")).json();
  return `/database/researchers/${leaderboard.data[0].uuid}`;
}
