import type { ContactRoute, ProductContact, ProductContactChange } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { type ContactProductRow, createProductContactQueries } from "./queries.ts";

export const PRODUCT_NOT_FOUND = "Product not found.";

const isoOf = (value: Date | string) => new Date(value).toISOString();

/** The site's origin of a URL, or null for anything that is not an http(s) URL. */
function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

const PROFILES_ORIGIN = "https://profiles.wordpress.org";
/** WordPress.org usernames as the directory spells them in profile URLs. */
const PROFILE_USERNAME = /^[a-z0-9][a-z0-9._-]{0,59}$/i;

/** A WordPress.org profile URL of the data, or null: staff are only sent to profiles.wordpress.org. */
function profileUrlOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    const username = parsed.pathname.split("/").filter(Boolean)[0] ?? "";
    return parsed.origin === PROFILES_ORIGIN && PROFILE_USERNAME.test(username)
      ? `${PROFILES_ORIGIN}/${username}/`
      : null;
  } catch {
    return null;
  }
}

/**
 * Every route to the vendor the data knows (issue 19), for staff to find an address: the plugin's own
 * site, its WordPress.org page (support forum, author), the WordPress.org profiles of its author and
 * contributors, the vendor's site and where its security.txt
 * would be (RFC 9116). Nothing is fetched: staff open them.
 */
export function contactRoutesOf(row: ContactProductRow): ContactRoute[] {
  const routes: ContactRoute[] = [];
  const isDirectoryPage = (url: string | null) => url !== null && /^https:\/\/wordpress\.org\//.test(url);
  if (row.product_url && !isDirectoryPage(row.product_url))
    routes.push({
      kind: "plugin_site",
      label: "The product's own site",
      url: row.product_url,
      text: row.product_url,
    });
  const directory = row.directory_url ?? (isDirectoryPage(row.product_url) ? row.product_url : null);
  if (directory)
    routes.push({
      kind: "directory_page",
      label: "WordPress.org page (author, support forum)",
      url: directory,
      text: directory,
    });
  if (row.author)
    routes.push({ kind: "author", label: "Author in the plugin directory", url: null, text: row.author });
  // WordPress.org profiles list the person's sites and how to reach them (a Slack handle, a site).
  const authorProfile = profileUrlOf(row.author_profile);
  if (authorProfile)
    routes.push({
      kind: "author_profile",
      label: "The author's WordPress.org profile",
      url: authorProfile,
      text: authorProfile,
    });
  for (const username of row.contributors ?? []) {
    if (!PROFILE_USERNAME.test(username)) continue;
    const url = `${PROFILES_ORIGIN}/${username}/`;
    if (url === authorProfile) continue;
    routes.push({ kind: "contributor", label: "A contributor's WordPress.org profile", url, text: username });
  }
  // Imported products name their WordPress.org page as the vendor's site: listed once, above.
  if (
    row.vendor_website_url &&
    row.vendor_website_url !== directory &&
    !isDirectoryPage(row.vendor_website_url)
  )
    routes.push({
      kind: "vendor_site",
      label: "The vendor's site",
      url: row.vendor_website_url,
      text: row.vendor_website_url,
    });
  const seen = new Set<string>();
  for (const url of [row.vendor_website_url, row.product_url]) {
    const origin = originOf(url);
    if (!origin || seen.has(origin) || origin === "https://wordpress.org") continue;
    seen.add(origin);
    const securityTxt = `${origin}/.well-known/security.txt`;
    routes.push({
      kind: "security_txt",
      label: "security.txt, if the site has one",
      url: securityTxt,
      text: securityTxt,
    });
  }
  return routes;
}

/** Staff set and read the vendor contact of a product without a program (issue 19). */
export function createProductContactService({ database }: { database: Database }) {
  const queries = createProductContactQueries(database.sql);

  async function contactOf(productId: number): Promise<ProductContact> {
    const row = await queries.findProduct(productId);
    if (!row) throw new AppError("not_found", { message: PRODUCT_NOT_FOUND });
    const history = await queries.history(productId);
    return {
      product: {
        id: row.id,
        platform: row.platform,
        kind: row.kind,
        slug: row.slug,
        name: row.name,
        has_active_program: row.has_active_program,
      },
      email: row.email,
      reachable: row.has_active_program || row.email !== null,
      routes: contactRoutesOf(row),
      history: history.map((change) => ({
        email: change.email,
        previous_email: change.previous_email,
        changed_by: change.changed_by ?? "A deleted account",
        changed_at: isoOf(change.changed_at),
      })),
    };
  }

  return {
    contactOf,

    /** Sets (or with null removes) the address; each change is kept with who made it. */
    async setContact(
      userId: number,
      productId: number,
      change: ProductContactChange,
    ): Promise<ProductContact> {
      await database.sql.transaction(async (tx) => {
        const row = await queries.findProduct(productId, tx, true);
        if (!row) throw new AppError("not_found", { message: PRODUCT_NOT_FOUND });
        if (row.email === change.email) return;
        await queries.setEmail({ productId, email: change.email, previousEmail: row.email, userId }, tx);
      });
      return contactOf(productId);
    },
  };
}

export type ProductContactService = ReturnType<typeof createProductContactService>;
