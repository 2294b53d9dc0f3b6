/** Limits of the public database's API: the server applies them, the API page states them. */

/**
 * The most matches a search counts and orders (decision 015); beyond, the answer is capped
 * (`pagination.total_capped`), newest first, and its pages stop there.
 */
export const SEARCH_MATCH_LIMIT = 2_000;

/** The most items one batch version check (`POST /api/v1/check`) takes. */
export const MAX_CHECK_ITEMS = 500;

/**
 * Spec §4/§9: the footer's counters are cached for one day (by browsers and the web's query cache).
 * Here, beside no schema, so that every page can read it without loading zod (issue 35).
 */
export const FOOTER_METRICS_MAX_AGE_SECONDS = 86_400;
