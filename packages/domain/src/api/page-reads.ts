import type { InvoiceDocument } from "../vendors/billing-schemas.ts";
import type { InvitationPreview } from "../vendors/team-schemas.ts";
import type { EmbedVendor, Mailbox } from "./mailbox-and-embed.ts";
import type { ProductDetails, ProgramDetail, ProgramPage } from "./programs.ts";
import type {
  Contributors,
  DatabaseCounts,
  FooterMetrics,
  Leaderboard,
  ProgramDirectory,
  PublicProduct,
  PublicResearcherProfile,
  Statistics,
  VulnerabilityDetail,
  VulnerabilityPage,
  VulnerabilitySearchPage,
} from "./public-database.ts";
import type { LinkGrant, ReportDetail, ReportPage } from "./reports.ts";
import type { SessionUser } from "./session-user.ts";

/**
 * The reads a server-rendered page gets in-process (issue 36, decision 038): each is an API route,
 * named by its route pattern under `/api`, answered by the same definition (schemas, access level,
 * handler) as the HTTP route without a request to the server's own port.
 */
export interface PageReadAnswers {
  "/v1/vulnerabilities": VulnerabilitySearchPage;
  "/v1/vulnerabilities/:id": VulnerabilityDetail;
  "/v1/products/:platform/:kind/:slug": PublicProduct;
  "/products/:id/vulnerabilities": VulnerabilityPage;
  "/products/:id/contributors": Contributors;
  "/v1/researchers/:uuid": PublicResearcherProfile;
  "/v1/researchers/:uuid/vulnerabilities": VulnerabilityPage;
  "/v1/statistics/counts": DatabaseCounts;
  "/v1/statistics/:platform/:timeframe": Statistics;
  "/v1/leaderboard/:type": Leaderboard;
  "/v1/programs": ProgramDirectory;
  "/public/footer/metrics": FooterMetrics;
  "/v1/embed/vendors/:public_key": EmbedVendor;
  "/invitations/:token": InvitationPreview;
  "/dev/mail": Mailbox;
  // Read with the page request's credentials (its session, token, link grant or PIN preview cookie).
  "/user": SessionUser;
  "/products": ProgramPage;
  "/products/details": ProductDetails;
  "/products/:id": ProgramDetail;
  "/reports/:id": ReportDetail;
  "/reports/:id/link-grant": LinkGrant;
  "/researcher/reports": ReportPage;
  "/vendor/invoices/:number": InvoiceDocument;
  "/report-previews/:id": ReportDetail;
}

export type PageReadRoute = keyof PageReadAnswers;

/** The query of a read as a page's loader builds it: absent values are left out. */
export type PageReadQuery = Readonly<Record<string, string | number | undefined>>;

/**
 * What an HTTP call of the page's loader would have shown the API of the visitor: their `Cookie`
 * header and their token (token mode). Absent: the read is anonymous.
 */
export interface VisitorCredentials {
  cookie?: string | null;
  bearer?: string | null;
}

/** Reads one route in-process: what `GET /api<route>` would answer that caller, parsed. */
export type PageReader = <R extends PageReadRoute>(
  route: R,
  params?: Readonly<Record<string, string>>,
  query?: PageReadQuery,
  visitor?: VisitorCredentials,
) => Promise<PageReadAnswers[R]>;

/** What an in-process read throws instead of an answer: the status and body the API would send. */
export interface PageReadFailure {
  readonly kind: "page-read-failure";
  readonly status: number;
  readonly message: string;
  readonly errors?: Record<string, string[]>;
}

export function isPageReadFailure(error: unknown): error is PageReadFailure {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { kind?: unknown }).kind === "page-read-failure" &&
    typeof (error as { status?: unknown }).status === "number"
  );
}

/** `/v1/vulnerabilities/:id` with `{ id: "a b" }` → `/v1/vulnerabilities/a%20b`; a missing param throws. */
export function pageReadPath(route: PageReadRoute, params: Readonly<Record<string, string>> = {}): string {
  return route.replace(/:([a-z_]+)/gi, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** The query string a read is asked with, in the order given, absent values left out ("" when none). */
export function pageReadSearch(query: PageReadQuery = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) search.append(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
