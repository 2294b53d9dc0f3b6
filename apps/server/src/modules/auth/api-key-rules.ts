import { API_KEY_SCOPES, type ApiKeyScope, type SessionUser } from "@pressguard/domain";

export type { ApiKeyScope };

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

/**
 * The scopes a user may put on a key: `read` and `watchlists` always, a role's scope only while
 * holding the role.
 */
export function grantableScopes(user: SessionUser): ApiKeyScope[] {
  return ["read", "watchlists", ...user.roles.filter((role) => isApiKeyScope(role))];
}

/**
 * The user as a request made with an API key sees it (decision 028): only the roles its scopes name
 * (and the user still holds), never staff. Every check downstream (the access levels, capabilities,
 * the services' ownership rules) then reads no more than the key allows.
 */
export function userWithin(user: SessionUser, scopes: readonly ApiKeyScope[]): SessionUser {
  const vendor = scopes.includes("vendor") ? user.vendor : null;
  const researcher = scopes.includes("researcher") ? user.researcher : null;
  return {
    ...user,
    roles: user.roles.filter((role) => scopes.includes(role)),
    vendor,
    researcher,
    is_staff: false,
  };
}
