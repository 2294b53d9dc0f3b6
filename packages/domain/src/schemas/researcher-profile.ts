import { z } from "zod";
import { CountryCode } from "../enums/countries.ts";
import { optionalUrl } from "./fields.ts";
import { COUNTRY_MESSAGE } from "./vendor-account.ts";

export const DISPLAY_NAME_REQUIRED_MESSAGE = "Display name is required.";
export const DISPLAY_NAME_LENGTH_MESSAGE = "Display name must be between 2 and 60 characters.";
export const BIO_MAX_LENGTH = 2000;
export const BIO_LENGTH_MESSAGE = "Bio must be at most 2,000 characters.";
export const GITHUB_MESSAGE =
  "GitHub handle must be a GitHub username (letters, digits and single hyphens, up to 39 characters) or a github.com profile URL.";
export const X_MESSAGE =
  "X handle must be an X (Twitter) username (letters, digits and underscores, up to 15 characters) or an x.com profile URL.";
export const MASTODON_MESSAGE =
  "Mastodon handle must look like @user@instance.social or https://instance.social/@user.";
export const LINKEDIN_MESSAGE =
  "LinkedIn handle must be a LinkedIn profile name (3 to 100 letters, digits or hyphens) or a linkedin.com/in/ profile URL.";

const GITHUB_USER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const X_USER = /^[A-Za-z0-9_]{1,15}$/;
const LINKEDIN_USER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{1,98})[A-Za-z0-9]$/;
const MASTODON_USER = /^[A-Za-z0-9_]{1,30}(?:[.-][A-Za-z0-9_]+)*$/;
const HOST = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * A handle typed as a name (`@name` or `name`) or pasted as the network's profile URL; returns the
 * bare name, or null when it is neither.
 */
function handleFrom(value: string, hosts: readonly string[], pathPrefix: string, pattern: RegExp) {
  let name = value;
  if (/^https?:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    if (!hosts.includes(host) || url.search || url.hash) return null;
    const path = url.pathname.replace(/\/+$/, "");
    if (!path.toLowerCase().startsWith(pathPrefix)) return null;
    name = path.slice(pathPrefix.length);
  } else if (name.startsWith("@")) name = name.slice(1);
  return pattern.test(name) ? name : null;
}

export function githubHandleOf(value: string): string | null {
  return handleFrom(value, ["github.com"], "/", GITHUB_USER);
}

export function xHandleOf(value: string): string | null {
  return handleFrom(value, ["x.com", "twitter.com"], "/", X_USER);
}

export function linkedinHandleOf(value: string): string | null {
  return handleFrom(value, ["linkedin.com"], "/in/", LINKEDIN_USER);
}

/** `@user@host` or `https://host/@user` → `@user@host` (the form Mastodon itself shows). */
export function mastodonHandleOf(value: string): string | null {
  let user: string | undefined;
  let host: string | undefined;
  if (/^https:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.port || url.search || url.hash || url.username || url.password) return null;
    const match = /^\/@([^/]+)\/?$/.exec(url.pathname);
    user = match?.[1];
    host = url.hostname;
  } else {
    const match = /^@?([^@\s]+)@([^@\s]+)$/.exec(value);
    user = match?.[1];
    host = match?.[2]?.toLowerCase();
  }
  if (!user || !host || !MASTODON_USER.test(user) || !HOST.test(host)) return null;
  return `@${user}@${host}`;
}

/** The public profile URL of a stored (normalised) handle. */
export const socialProfileUrl = {
  github: (handle: string) => `https://github.com/${encodeURIComponent(handle)}`,
  x: (handle: string) => `https://x.com/${encodeURIComponent(handle)}`,
  linkedin: (handle: string) => `https://www.linkedin.com/in/${encodeURIComponent(handle)}`,
  mastodon: (handle: string) => {
    const [, user = "", host = ""] = handle.split("@");
    return `https://${host}/@${encodeURIComponent(user)}`;
  },
} as const;
export type SocialNetwork = keyof typeof socialProfileUrl;
export const SOCIAL_NETWORKS = [
  "github",
  "x",
  "mastodon",
  "linkedin",
] as const satisfies readonly SocialNetwork[];

/** An optional handle: blank or missing → null; otherwise normalised by `normalise` or refused. */
function optionalHandle(normalise: (value: string) => string | null, message: string) {
  return z
    .string({ error: message })
    .trim()
    .nullish()
    .transform((value, context) => {
      if (value === undefined || value === null || value === "") return null;
      const handle = normalise(value);
      if (handle === null) {
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return handle;
    });
}

/**
 * The researcher's public profile (PRODUCT.md §5): display name, country, website, social handles
 * and a Markdown bio. Handles are stored without their URL (`octocat`, `@user@host` for Mastodon).
 */
export const ResearcherProfile = z.object({
  display_name: z
    .string({ error: DISPLAY_NAME_REQUIRED_MESSAGE })
    .trim()
    .min(1, { error: DISPLAY_NAME_REQUIRED_MESSAGE, abort: true })
    .min(2, { error: DISPLAY_NAME_LENGTH_MESSAGE })
    .max(60, { error: DISPLAY_NAME_LENGTH_MESSAGE }),
  /** ISO 3166-1 alpha-2 code; optional. */
  country: z
    .union([CountryCode, z.literal(""), z.null()], { error: COUNTRY_MESSAGE })
    .optional()
    .transform((value) => (value ? value : null)),
  website: optionalUrl(),
  github: optionalHandle(githubHandleOf, GITHUB_MESSAGE),
  x: optionalHandle(xHandleOf, X_MESSAGE),
  mastodon: optionalHandle(mastodonHandleOf, MASTODON_MESSAGE),
  linkedin: optionalHandle(linkedinHandleOf, LINKEDIN_MESSAGE),
  /** Markdown, rendered without raw HTML (apps/web ui/markdown.tsx). */
  bio: z
    .string({ error: BIO_LENGTH_MESSAGE })
    .trim()
    .max(BIO_MAX_LENGTH, { error: BIO_LENGTH_MESSAGE })
    .nullish()
    .transform((value) => (value ? value : null)),
});
export type ResearcherProfile = z.infer<typeof ResearcherProfile>;
export type ResearcherProfileInput = z.input<typeof ResearcherProfile>;
