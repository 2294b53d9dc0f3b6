import type { ResearcherProfile } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

export interface ResearcherProfileRow {
  uuid: string;
  display_name: string;
  country: string | null;
  website: string | null;
  github: string | null;
  x: string | null;
  mastodon: string | null;
  linkedin: string | null;
  bio: string | null;
  completed: boolean;
}

/** A user's researcher profile is their first researcher row, as GET /user reads it (auth queries). */
const PROFILE_OF_USER = "select id from researchers where user_id = $1 order by id limit 1";

export function prepareResearcherQueries(sql: SqlRunner) {
  return {
    async findProfileByUserId(userId: number, tx: SqlRunner = sql): Promise<ResearcherProfileRow | null> {
      const { rows } = await tx.query<ResearcherProfileRow>(
        `select uuid::text, display_name, country, website, github, x, mastodon, linkedin, bio,
           profile_completed_at is not null as completed
         from researchers where id = (${PROFILE_OF_USER})`,
        [userId],
      );
      return rows[0] ?? null;
    },

    /** Saves the profile; the first save completes it. Returns false when the user has no profile. */
    async updateProfile(userId: number, profile: ResearcherProfile, tx: SqlRunner = sql): Promise<boolean> {
      const { rows } = await tx.query<{ id: number }>(
        `update researchers set display_name = $2, country = $3, website = $4, github = $5, x = $6,
           mastodon = $7, linkedin = $8, bio = $9,
           profile_completed_at = coalesce(profile_completed_at, now()), updated_at = now()
         where id = (${PROFILE_OF_USER})
         returning id`,
        [
          userId,
          profile.display_name,
          profile.country,
          profile.website,
          profile.github,
          profile.x,
          profile.mastodon,
          profile.linkedin,
          profile.bio,
        ],
      );
      return rows.length > 0;
    },
  };
}
