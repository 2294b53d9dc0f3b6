import type { Pagination } from "../../lib/api/page.ts";

export type { Pagination };

/**
 * The public database API's answers as the pages read them (apps/server/src/modules/vulnerabilities/
 * schemas.ts is the contract; the web app keeps its own view of it, as any API client would).
 */

interface ProductRef {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  url: string;
}

export interface VulnerabilitySummary {
  id: string;
  slug: string;
  url: string;
  title: string;
  cve: string | null;
  severity: string | null;
  cvss_score: number | null;
  type: { code: number; label: string } | null;
  patched: boolean;
  fixed_in: string | null;
  affected_versions: string | null;
  published_at: string | null;
  product: ProductRef;
}

export interface VulnerabilityPage {
  data: VulnerabilitySummary[];
  pagination: Pagination;
}

export interface AffectedRange {
  product: ProductRef;
  introduced: string | null;
  introduced_inclusive: boolean;
  fixed: string | null;
  last_affected: string | null;
  prefix: string;
  version: string;
  fixed_in: string | null;
}

export interface Vulnerability extends VulnerabilitySummary {
  description: string;
  type_label: string | null;
  owasp: { code: number; id: string; label: string } | null;
  required_privilege: { code: number; label: string } | null;
  cvss: {
    vector: string;
    version: string;
    score: number;
    severity: string;
    metrics: Record<string, string>;
  } | null;
  cwe: string | null;
  references: string[];
  affected: AffectedRange[];
  affected_possibly_incomplete: boolean;
  credits: { uuid: string; display_name: string; role: string; url: string }[];
  updated_at: string | null;
  source: string;
  source_id: string | null;
  source_url: string | null;
  attribution: string | null;
}

export interface PublicProduct extends ProductRef {
  is_active: boolean;
  version: string | null;
  author: string | null;
  active_installs: number | null;
  directory_url: string | null;
  counters: { vulnerabilities: number; present: number; fixed: number };
  /** The vendor's disclosure program, only while it is active (decision 006). */
  program?: ProductProgram | null;
}

export interface ProductProgram {
  vendor_name: string;
  vendor_website_url: string | null;
  fix_deadline_days: number;
  activated_at: string | null;
  plan: "free" | "premium" | "both";
}

export interface Contributor {
  uuid: string;
  display_name: string;
  url: string;
  vulnerabilities: number;
}

export interface ResearcherProfile {
  uuid: string;
  display_name: string;
  country: string | null;
  website: string | null;
  bio: string | null;
  /** PRODUCT.md §5 social handles, with their profile URLs. */
  social: { network: "github" | "x" | "mastodon" | "linkedin"; handle: string; url: string }[];
  url: string;
  vulnerabilities: number;
  points: number;
  rank: number | null;
}

export interface DatabaseCounts {
  vulnerabilities: number;
  products: number;
  researchers: number;
  patched: number;
  by_kind: Record<string, number>;
  by_severity: Record<string, number>;
}

export interface LeaderboardEntry {
  rank: number;
  uuid: string;
  display_name: string;
  url: string;
  points: number;
  vulnerabilities: number;
}

export interface Leaderboard {
  type: string;
  period: { from: string | null; to: string | null };
  data: LeaderboardEntry[];
}

/** The severity bands of a month's count; `unknown` has no CVSS score. */
export type MonthlySeverity = "critical" | "high" | "medium" | "low" | "none" | "unknown";

export interface MonthlyCount {
  month: string;
  count: number;
  by_severity: Record<MonthlySeverity, number>;
}

export interface Statistics {
  platform: string;
  timeframe: string;
  total: number;
  by_kind: { key: string; label: string; count: number }[];
  by_type: { key: string; label: string; count: number }[];
  by_severity: { key: string; label: string; count: number }[];
  patched: { patched: number; unpatched: number };
  monthly: MonthlyCount[];
  top_researchers: LeaderboardEntry[];
}

export interface ProgramDirectory {
  data: (ProductRef & { vulnerabilities: number })[];
  pagination: Pagination;
}
