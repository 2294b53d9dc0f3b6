import type { Plan, ProgramInput, SoftwareType } from "@pressguard/domain";

import type { Page } from "../../lib/api/page.ts";

export type { Page };

/**
 * The vendor program API's answers as the pages read them (decision 006 is the contract; the web app
 * keeps its own view of it, as any API client would).
 */

/** Spec §4: the fixed strings of the program list tabs. */
export type ProgramFilter = "all-active" | "open-reports" | "vdp-pending";

export interface VendorProgram {
  id: number;
  platform: string;
  kind: SoftwareType | "core";
  slug: string;
  name: string;
  version: string | null;
  product_url: string | null;
  description: string | null;
  dependencies: string | null;
  vendor_contact_email: string | null;
  vendor_website_url: string | null;
  plan: Plan;
  is_active: boolean;
  is_lobby_product: boolean;
  activated_at: string | null;
  created_at: string;
  fix_deadline_days: number;
  open_reports: number;
  vulnerabilities: number;
  public_path: string;
}

/** Spec §3 product detail counters (`GET /products/details`). */
export interface ProductDetails {
  active: number;
  fixed: number;
  fixedOnTime: number;
  open: number;
  pending: number;
  reports: number;
}

export interface ProgramWithCounters extends VendorProgram {
  counters: { reports: number; open: number; fixed: number; fixedOnTime: number };
}

/** `GET /products/{id}/edit`: the Program fields as stored. */
export type ProgramFields = { [K in keyof ProgramInput]-?: ProgramInput[K] | null };

export interface LobbyProduct {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  product_url: string | null;
  vendor_website_url: string | null;
  author: string | null;
  active_installs: number | null;
  vulnerabilities: number;
  domain_match: boolean;
  claim_status: null | "pending" | "rejected";
}

export interface ActivationResult {
  status: "success" | "pending" | "error";
  message: string;
}

export interface CsvImportResult {
  rows: number;
  created: number;
  errors: { line: number; messages: string[] }[];
}

/** The public product vulnerability list entries (the same API as the public database). */
export interface ProgramVulnerability {
  id: string;
  slug: string;
  url: string;
  title: string;
  severity: string | null;
  cvss_score: number | null;
  patched: boolean;
  fixed_in: string | null;
  affected_versions: string | null;
  published_at: string | null;
}

export interface ProgramContributor {
  uuid: string;
  display_name: string;
  url: string;
  vulnerabilities: number;
}
