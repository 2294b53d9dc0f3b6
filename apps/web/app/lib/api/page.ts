/**
 * The page number a `next_page_url` asks for. The API writes it relative to its own origin
 * (`/api/products?filter=…&page=2`); reading only `page` keeps the call on the client's API base.
 */
export function pageFromUrl(url: string | null | undefined): number | null {
  if (!url) return null;
  try {
    const page = Number(new URL(url, "http://localhost").searchParams.get("page"));
    return Number.isInteger(page) && page >= 1 ? page : null;
  } catch {
    return null;
  }
}
