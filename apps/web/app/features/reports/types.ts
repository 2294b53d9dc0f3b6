/**
 * The product picker's view of the public product API (the report API's answers are the domain
 * package's: `ReportDetail`, `ReportListItem`, …).
 */

/** One product of `GET /api/v1/products` (the form's product picker). */
export interface ProductOption {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  url: string;
  is_active: boolean;
  is_lobby_product: boolean;
  vulnerabilities: number;
}

/** One known vulnerability of a product (`GET /api/products/{id}/vulnerabilities`). */
export interface KnownVulnerability {
  id: string;
  slug: string;
  title: string;
  cve: string | null;
  patched: boolean;
  fixed_in: string | null;
  affected_versions: string | null;
  product: { platform: string; kind: string; slug: string; name: string };
}
