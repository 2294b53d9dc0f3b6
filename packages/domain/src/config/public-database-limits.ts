/** Limits of the public database's API: the server applies them, the API page states them. */

/**
 * The most matches a search counts and orders (decision 015); beyond, the answer is capped
 * (`pagination.total_capped`), newest first, and its pages stop there.
 */
export const SEARCH_MATCH_LIMIT = 2_000;

/** The most items one batch version check (`POST /api/v1/check`) takes. */
export const MAX_CHECK_ITEMS = 500;
