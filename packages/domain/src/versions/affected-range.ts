import { z } from "zod";
import { VersionPrefix } from "../enums/version-prefixes.ts";
import { compareVersions } from "./compare-versions.ts";

/**
 * One affected version range: OSV-style bounds plus the specification's display form (§3 version
 * prefixes). This is the seed's `affected[]` item (see data/wordpress-vulns/README.md §1.3 step 5).
 */
export const AffectedRange = z.object({
  introduced: z.string().optional(),
  /** Whether `introduced` itself is affected; true when omitted. */
  introduced_inclusive: z.boolean().optional(),
  /** The first version that is not affected (exclusive upper bound). */
  fixed: z.string().optional(),
  /** The last version that is affected (inclusive upper bound). */
  last_affected: z.string().optional(),
  prefix: VersionPrefix,
  version: z.string(),
});
export type AffectedRange = z.infer<typeof AffectedRange>;

/**
 * Whether `version` lies in `range`, ordered by {@link compareVersions}.
 * Explicit bounds win: `introduced` (inclusive unless `introduced_inclusive` is false), `fixed`
 * (exclusive) and `last_affected` (inclusive; "*" means every version). When the range has no
 * upper bound, the display form decides: "<=" X, "<" X, or "" X for exactly X ("<= *" is everything).
 */
export function isVersionAffected(version: string, range: AffectedRange): boolean {
  if (range.introduced !== undefined && range.introduced !== "") {
    const order = compareVersions(version, range.introduced);
    if (order < 0 || (order === 0 && range.introduced_inclusive === false)) return false;
  }
  const hasFixed = range.fixed !== undefined && range.fixed !== "";
  const hasLastAffected = range.last_affected !== undefined && range.last_affected !== "";
  if (hasFixed && compareVersions(version, range.fixed!) >= 0) return false;
  if (hasLastAffected && compareVersions(version, range.last_affected!) > 0) return false;
  if (hasFixed || hasLastAffected) return true;
  const order = compareVersions(version, range.version);
  switch (range.prefix) {
    case "<=":
      return order <= 0;
    case "<":
      return order < 0;
    default:
      return order === 0;
  }
}

/** The bounds of a range as stored or answered (null where a bound is missing). */
export interface RangeBounds {
  prefix: string;
  version: string;
  introduced?: string | null | undefined;
  introduced_inclusive?: boolean | null | undefined;
  fixed?: string | null | undefined;
  last_affected?: string | null | undefined;
}

/** Stored bounds (null where missing) as the range {@link isVersionAffected} compares. */
export const affectedRangeOf = (range: RangeBounds): AffectedRange => ({
  prefix: range.prefix as VersionPrefix,
  version: range.version,
  ...(range.introduced != null && { introduced: range.introduced }),
  ...(range.introduced_inclusive != null && { introduced_inclusive: range.introduced_inclusive }),
  ...(range.fixed != null && { fixed: range.fixed }),
  ...(range.last_affected != null && { last_affected: range.last_affected }),
});

/**
 * A range as people read it, with every bound it has: "every version", "exactly 2.5", "< 4.1.1",
 * "<= 2.7.2", ">= 6.5, < 6.5.5". The one wording of lists, record pages, feeds and the check.
 */
export function describeAffectedRange(range: RangeBounds): string {
  if (range.prefix === "<=" && range.version === "*") return "every version";
  if (range.prefix === "" && !range.fixed) return `exactly ${range.version}`;
  const upper = range.fixed
    ? `< ${range.fixed}`
    : range.last_affected
      ? `<= ${range.last_affected}`
      : `${range.prefix} ${range.version}`.trim();
  // OSV writes an unknown lower bound as "0".
  if (!range.introduced || range.introduced === "0") return upper;
  return `${range.introduced_inclusive === false ? ">" : ">="} ${range.introduced}, ${upper}`;
}
