/** The two roles an account may have; staff is no role one picks. */
export const ACCOUNT_ROLES = ["researcher", "vendor"] as const;

/**
 * What a new account signs up as: one of the roles, or a site owner (issue 20), an account with no
 * role that keeps watchlists (any signed-in user may).
 */
export const REGISTRATION_ROLES = [...ACCOUNT_ROLES, "site_owner"] as const;
