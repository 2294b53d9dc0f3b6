import {
  type DuplicateCandidate,
  type DuplicateMatch,
  describeAffectedRange,
  type RangeBounds,
  reportedVersionOverlaps,
} from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { createDuplicateQueries } from "./duplicate-queries.ts";

const DUPLICATE_CANDIDATE_LIMIT = 10;

/** What a report is compared by: its product, type and reported versions. */
export interface DuplicateProbe {
  id: string | null;
  productId: number;
  typeCode: number | null;
  prefix: string | null;
  version: string | null;
}

const RANK: Record<DuplicateMatch, number> = { type_and_versions: 0, type: 1, versions: 2 };

function matchOf(
  probe: DuplicateProbe,
  typeCode: number | null,
  ranges: RangeBounds[],
): DuplicateMatch | null {
  const sameType = probe.typeCode !== null && typeCode === probe.typeCode;
  const overlaps =
    probe.version !== null &&
    ranges.some((range) =>
      reportedVersionOverlaps({ prefix: probe.prefix ?? "<=", version: probe.version! }, range),
    );
  if (sameType && overlaps) return "type_and_versions";
  if (sameType) return "type";
  return overlaps ? "versions" : null;
}

const timeOf = (value: string | null) => (value ? Date.parse(value) : 0);

/**
 * The possible originals of a report, as HackerOne ranks them (issue 19): the product's published
 * records and other open reports; same type with overlapping versions first, then same type, then
 * overlapping versions only; newest first within a rank.
 */
export async function duplicateCandidates(
  sql: SqlRunner,
  probe: DuplicateProbe,
  publicPath: (slug: string) => string,
  limit = DUPLICATE_CANDIDATE_LIMIT,
): Promise<{ candidates: DuplicateCandidate[]; knownCount: number }> {
  const queries = createDuplicateQueries(sql);
  const rangeRows = await queries.recordRanges(probe.productId, sql);
  const reportRows = await queries.otherReports(probe.productId, probe.id, sql);

  const records = new Map<string, { row: (typeof rangeRows)[number]; ranges: RangeBounds[] }>();
  for (const row of rangeRows) {
    const range: RangeBounds = { ...row };
    const entry = records.get(row.id);
    if (entry) entry.ranges.push(range);
    else records.set(row.id, { row, ranges: [range] });
  }
  const candidates: DuplicateCandidate[] = [];
  for (const { row, ranges } of records.values()) {
    const match = matchOf(probe, row.type_code, ranges);
    if (match)
      candidates.push({
        kind: "vulnerability",
        id: row.id,
        title: row.title,
        vulnerability_type: row.type_code,
        affected_versions: ranges.map(describeAffectedRange).join("; "),
        match,
        public_path: publicPath(row.slug),
        status: null,
        created_at: isoOrNull(row.dated),
      });
  }
  for (const row of reportRows) {
    const range = { prefix: row.affected_version_prefix ?? "<=", version: row.affected_version ?? "*" };
    const match = matchOf(probe, row.type_code, [range]);
    if (match)
      candidates.push({
        kind: "report",
        id: row.id,
        title: row.title,
        vulnerability_type: row.type_code,
        affected_versions: describeAffectedRange(range),
        match,
        public_path: null,
        status: row.status,
        created_at: isoOrNull(row.created_at),
      });
  }
  candidates.sort((a, b) => RANK[a.match] - RANK[b.match] || timeOf(b.created_at) - timeOf(a.created_at));
  return { candidates: candidates.slice(0, limit), knownCount: records.size };
}
