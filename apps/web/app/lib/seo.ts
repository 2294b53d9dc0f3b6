import type { PublicConfig } from "@pressguard/domain";
import type { MetaDescriptor } from "react-router";
import { describeError } from "./errors.ts";

/**
 * Titles, canonical links and robots rules (spec §2, §9).
 * - document title = page title + separator + site name; no page title → the last path segment
 *   in title case; no segment at all ("/") → the site name alone;
 * - an error page's title is its status code and message;
 * - the canonical link is the site URL + the path (trailing slash per config) + only the
 *   whitelisted query parameters;
 * - a site that is not indexable says so in a robots meta tag;
 * - a page that has an Atom feed announces it (`<link rel="alternate" type="application/atom+xml">`,
 *   feed autodiscovery): the database's feed from its layout's `links`, a product's from the page's meta.
 */

export type SeoSite = Pick<
  PublicConfig["site"],
  "name" | "url" | "trailingSlash" | "indexable" | "titleSeparator"
>;

export interface SeoConfig {
  site: SeoSite;
  canonicalQueryWhitelist: readonly string[];
}

/** Used only when the root loader's data is missing (a crash before it ran). */
const FALLBACK_SITE_NAME = "Pressguard";

/** `/vdp/reports/awaiting_fix` → "Awaiting Fix"; `/` → "". */
export function titleFromPath(pathname: string): string {
  const segment = pathname.split("/").filter(Boolean).pop() ?? "";
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape stays as typed.
  }
  return decoded
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

export function formatDocumentTitle(
  pageTitle: string | null | undefined,
  site: Pick<SeoSite, "name" | "titleSeparator">,
): string {
  const title = pageTitle?.trim();
  return title ? `${title} ${site.titleSeparator} ${site.name}` : site.name;
}

/** "404 | Page not found": the page title of an error screen (before the site name is added). */
function errorPageTitle(status: number, message: string, separator: string): string {
  return `${status} ${separator} ${message}`;
}

export function withTrailingSlashRule(pathname: string, trailingSlash: boolean): string {
  const path = pathname.startsWith("/") ? pathname : `/${pathname}`;
  if (path === "/") return path;
  const bare = path.replace(/\/+$/, "");
  return trailingSlash ? `${bare}/` : bare || "/";
}

export function canonicalUrl(config: SeoConfig, pathname: string, search = ""): string {
  const base = config.site.url.replace(/\/+$/, "");
  const path = withTrailingSlashRule(pathname, config.site.trailingSlash);
  const allowed = new Set(config.canonicalQueryWhitelist);
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(search)) {
    if (allowed.has(name) && value !== "") kept.append(name, value);
  }
  const query = kept.toString();
  return `${base}${path}${query ? `?${query}` : ""}`;
}

/** An Atom feed a page announces: its title and its path on the site. */
export interface FeedLink {
  title: string;
  path: string;
}

const ATOM_TYPE = "application/atom+xml";

/** The public database's feed of new vulnerabilities (apps/server/src/modules/feeds). */
export const DATABASE_FEED: FeedLink = { title: "New WordPress vulnerabilities", path: "/database/feed" };

/** The attributes of the `<link>` that announces a feed (a route's `links`, or `meta` with its tag name). */
export function feedLinkOf(feed: FeedLink) {
  return { rel: "alternate", type: ATOM_TYPE, title: feed.title, href: feed.path };
}

export interface MetaInput {
  /** The page's own title; omitted → the last path segment in title case. */
  title?: string | undefined;
  description?: string | undefined;
  /** Atom feeds the page announces. */
  feeds?: readonly FeedLink[] | undefined;
}

export interface MetaContext {
  location: { pathname: string; search: string };
  config: SeoConfig | null;
  error?: unknown;
}

export function buildMeta(input: MetaInput, context: MetaContext): MetaDescriptor[] {
  const site = context.config?.site ?? { name: FALLBACK_SITE_NAME, titleSeparator: "|", indexable: true };
  if (context.error !== undefined && context.error !== null) {
    const { status, message } = describeError(context.error);
    return [
      { title: formatDocumentTitle(errorPageTitle(status, message, site.titleSeparator), site) },
      { name: "robots", content: "noindex" },
    ];
  }
  const meta: MetaDescriptor[] = [
    { title: formatDocumentTitle(input.title ?? titleFromPath(context.location.pathname), site) },
  ];
  if (input.description) meta.push({ name: "description", content: input.description });
  if (context.config) {
    meta.push({
      tagName: "link",
      rel: "canonical",
      href: canonicalUrl(context.config, context.location.pathname, context.location.search),
    });
  }
  for (const feed of input.feeds ?? []) meta.push({ tagName: "link", ...feedLinkOf(feed) });
  if (!site.indexable) meta.push({ name: "robots", content: "noindex, nofollow" });
  return meta;
}

/** The part of React Router's `MetaArgs` the helpers read. */
export interface MetaArgsLike {
  location: { pathname: string; search: string };
  params: Record<string, string | undefined>;
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  error?: unknown;
}

/** The root loader's public config, as every meta function sees it. */
export function configFromMatches(matches: MetaArgsLike["matches"]): SeoConfig | null {
  const rootData = matches.find((match) => match?.id === "root")?.loaderData;
  if (rootData && typeof rootData === "object" && "publicConfig" in rootData) {
    return (rootData as { publicConfig: PublicConfig }).publicConfig;
  }
  return null;
}

type MetaValue = string | ((args: MetaArgsLike) => string | undefined);

/**
 * The meta function of a page: `export const meta = pageMeta("Active VDP directory", "…")`.
 * A function may compute the title from params (`({ params }) => ...`); `feeds` lists the Atom
 * feeds the page announces beside the database's own (which its layout's `links` names).
 */
export function pageMeta(
  title?: MetaValue,
  description?: MetaValue,
  feeds?: (args: MetaArgsLike) => readonly FeedLink[],
) {
  return (args: MetaArgsLike): MetaDescriptor[] =>
    buildMeta(
      {
        title: typeof title === "function" ? title(args) : title,
        description: typeof description === "function" ? description(args) : description,
        feeds: feeds?.(args),
      },
      { location: args.location, config: configFromMatches(args.matches), error: args.error },
    );
}
