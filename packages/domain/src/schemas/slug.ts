/** Lowercase letters and digits in groups joined by single hyphens (spec §5 "valid slug"). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A slug matching {@link SLUG_PATTERN} from any text: accents dropped ("Café" → "cafe"), every other
 * run of non-alphanumerics becomes one hyphen, cut at a hyphen to at most `maxLength` characters.
 * Returns "" when the text has no letters or digits.
 */
export function slugify(text: string, maxLength = 80): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength + 1);
  const lastHyphen = cut.lastIndexOf("-");
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : slug.slice(0, maxLength)).replace(/-+$/, "");
}

/**
 * What may name a vulnerability by its slug (the API's `{key}`, the page's `{slug}`): lowercase
 * letters, digits and hyphens, 1 to 200 characters, checked before any lookup. Anything else names
 * no record: both apps answer 404 without asking further.
 */
export const VULNERABILITY_SLUG_KEY_PATTERN = /^[a-z0-9-]{1,200}$/;

/** A deterministic, URL-safe, unique slug: the title's slug plus the id's first 8 hex digits. */
export function vulnerabilitySlug(title: string, id: string): string {
  const base = slugify(title, 80);
  const suffix = id.replace(/-/g, "").slice(0, 8).toLowerCase();
  return base ? `${base}-${suffix}` : `vulnerability-${suffix}`;
}
