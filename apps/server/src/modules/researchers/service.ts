import { ResearcherProfile, type SessionUser } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { prepareResearcherQueries, type ResearcherProfileRow } from "./queries.ts";

export type ResearcherProfileBody = ResearcherProfileRow;

const NOT_FOUND_MESSAGE = "Researcher profile not found.";

/** The signed-in researcher's own profile (PRODUCT.md §5, decision 010). */
export function createResearcherProfileService({
  database,
  onPublicChange,
}: {
  database: Database;
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
}) {
  const queries = prepareResearcherQueries(database.sql);

  async function requireProfile(userId: number): Promise<ResearcherProfileBody> {
    const row = await queries.findProfileByUserId(userId);
    if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGE });
    return row;
  }

  return {
    getProfile(user: SessionUser): Promise<ResearcherProfileBody> {
      return requireProfile(user.id);
    },

    async updateProfile(user: SessionUser, input: unknown): Promise<ResearcherProfileBody> {
      const result = ResearcherProfile.safeParse(input);
      if (!result.success) throw validationErrorOf(result.error.issues);
      await database.sql.transaction(async (tx) => {
        const updated = await queries.updateProfile(user.id, result.data, tx);
        if (!updated) throw new AppError("not_found", { message: NOT_FOUND_MESSAGE });
        // The profile is public (/database/researchers/{uuid}, leaderboards, credits).
        await bumpDataVersion(tx);
      });
      await onPublicChange?.();
      return requireProfile(user.id);
    },
  };
}

export type ResearcherProfileService = ReturnType<typeof createResearcherProfileService>;
