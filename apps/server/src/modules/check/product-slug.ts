/**
 * How a product's slug is matched (decision 031, issue 38): in lower case on both sides. Upstream slugs
 * keep their capitals (`Avada`, `LayerSlider`: 60 products of the bundled data), users send any case,
 * watchlist entries are stored in lower case. The batch check, the watchlists, their alerts and the
 * vendors' notices all match through these two, so none of them can miss what another finds.
 */
export const productSlugKey = (slug: string): string => slug.toLowerCase();

/** The same rule in SQL, over a column or a parameter; `lower(p.slug)` is indexed with the kind. */
export const productSlugKeySql = (expression: string): string => `lower(${expression})`;
