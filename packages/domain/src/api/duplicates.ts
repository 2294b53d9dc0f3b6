import { z } from "zod";

/** Why a candidate may be the same finding, strongest first (issue 19). */
export const DUPLICATE_MATCHES = ["type_and_versions", "type", "versions"] as const;
export type DuplicateMatch = (typeof DUPLICATE_MATCHES)[number];

export const DUPLICATE_MATCH_LABELS: Record<DuplicateMatch, string> = {
  type_and_versions: "Same type and overlapping versions",
  type: "Same type",
  versions: "Overlapping versions",
};

/** One possible original of a report: a published record or another report on the same product. */
export const DuplicateCandidate = z.object({
  kind: z.enum(["vulnerability", "report"]),
  id: z.string(),
  title: z.string(),
  vulnerability_type: z.number().int().nullable(),
  /** The affected versions as people read them ("<= 5.8.1", ">= 2.0, < 2.3"). */
  affected_versions: z.string(),
  match: z.enum(DUPLICATE_MATCHES),
  /** The public record page (records only). */
  public_path: z.string().nullable(),
  /** A report's state (reports only). */
  status: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type DuplicateCandidate = z.infer<typeof DuplicateCandidate>;

/** `GET /staff/reports/{id}/duplicate-candidates`. */
export const DuplicateCandidates = z
  .object({
    data: z.array(DuplicateCandidate),
    /** How many published records affect the report's product. */
    known_vulnerability_count: z.number().int(),
  })
  .meta({ id: "DuplicateCandidates" });
export type DuplicateCandidates = z.infer<typeof DuplicateCandidates>;

/**
 * What a report rejected as a duplicate duplicates. The title and the link only when the original is
 * public (a published record, or a report since published); staff also get a private report's title.
 */
export const DuplicateOf = z.object({
  kind: z.enum(["vulnerability", "report"]),
  title: z.string().nullable(),
  public_path: z.string().nullable(),
  /** Staff only: the record's or report's id. */
  id: z.string().optional(),
});
export type DuplicateOf = z.infer<typeof DuplicateOf>;

/** The refusals of marking a report a duplicate (422 on the target's field). */
export const DUPLICATE_MESSAGES = {
  onlyDuplicates: "Choose the reason Duplicate to name the original.",
  oneOriginal: "Choose one original: a known vulnerability or a report.",
  unknownRecord: "This vulnerability does not exist. Choose one from the possible duplicates.",
  unknownReport: "This report does not exist. Choose one from the possible duplicates.",
  otherProduct: "The original must be on the same product as this report.",
  itself: "A report cannot be a duplicate of itself. Choose another report.",
} as const;
