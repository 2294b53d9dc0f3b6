/**
 * Whether a vendor may claim a lobby product at once (decision 006): the product's URL host must
 * belong to one of the vendor's own domains. Hosts shared by many unrelated authors never count.
 */
const SHARED_HOSTS = new Set([
  "wordpress.org",
  "wordpress.com",
  "github.com",
  "github.io",
  "gitlab.com",
  "bitbucket.org",
  "codecanyon.net",
  "themeforest.net",
  "envato.com",
  "sourceforge.net",
  "gmail.com",
  "googlemail.com",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "msn.com",
  "yahoo.com",
  "icloud.com",
  "me.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "gmx.de",
  "mail.com",
  "mail.ru",
  "yandex.ru",
  "yandex.com",
  "qq.com",
  "163.com",
  "zoho.com",
]);

/** The host of an http(s) URL, lower case and without a leading "www."; null when there is none. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol !== "http:" && protocol !== "https:") return null;
    return hostname.toLowerCase().replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/** The domain of an e-mail address, lower case. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  return at > 0
    ? email
        .slice(at + 1)
        .trim()
        .toLowerCase() || null
    : null;
}

/** A domain that identifies one organisation: has a dot and is not a shared host or a subdomain of one. */
export function isOwnDomain(domain: string): boolean {
  if (!domain.includes(".")) return false;
  for (const shared of SHARED_HOSTS) {
    if (domain === shared || domain.endsWith(`.${shared}`)) return false;
  }
  return true;
}

/** The distinct own domains among `candidates` (hosts or e-mail domains). */
export function ownDomains(candidates: readonly (string | null)[]): string[] {
  return [...new Set(candidates.filter((domain): domain is string => !!domain && isOwnDomain(domain)))];
}

/** A product host belongs to a vendor domain when it is that domain or one of its subdomains. */
export function hostMatches(host: string | null, domains: readonly string[]): boolean {
  if (!host || !isOwnDomain(host)) return false;
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
