/**
 * Issue 15, decision 021 ("Preview links without the token in the URL"): an e-mailed preview
 * link's `?token=` is exchanged on its first request for a short-lived grant, kept in this HttpOnly
 * cookie (scoped to the report's page and API paths), and the page is reloaded without the query.
 * The API reads the grant where it read the link's `?token=`.
 */
export const LINK_GRANT_COOKIE = "pressguard_link_grant";

/** A grant lives an hour (as a PIN's credential does), and never beyond its link. */
export const LINK_GRANT_SECONDS = 60 * 60;
