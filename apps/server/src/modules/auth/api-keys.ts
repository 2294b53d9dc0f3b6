import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  type ApiKeyCreation,
  type ApiKeySummary,
} from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { RequestAuth } from "../../http/access.ts";
import { grantableScopes, isApiKeyScope } from "./api-key-rules.ts";
import { randomToken, sha256 } from "./credentials.ts";
import type { AuthParts } from "./rules.ts";

/** A user keeps at most this many live keys (each one is a credential to watch). */
const MAX_API_KEYS = 25;

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * Named API keys (decision 028): `personal_access_tokens` rows of kind `api_key`, listed and revoked
 * with the login tokens (`revokeToken`). The secret is answered once; only its SHA-256 is kept.
 */
export function createApiKeys({ queries }: Pick<AuthParts, "queries">) {
  return {
    async createApiKey(auth: RequestAuth, request: ApiKeyCreation): Promise<ApiKeySummary & { key: string }> {
      const allowed = grantableScopes(auth.user);
      if (request.scopes.some((scope) => !allowed.includes(scope)))
        throw new AppError("validation", { fieldErrors: { scopes: [API_KEY_MESSAGES.scopeNotAllowed] } });
      if ((await queries.countLiveAccessTokens(auth.user.id, "api_key")) >= MAX_API_KEYS)
        throw new AppError("validation", {
          fieldErrors: { name: [`You have ${MAX_API_KEYS} keys: revoke one before you make another.`] },
        });
      const key = `${API_KEY_PREFIX}${randomToken()}`;
      const row = await queries.createAccessToken({
        tokenHash: sha256(key),
        userId: auth.user.id,
        name: request.name,
        kind: "api_key",
        scopes: request.scopes,
        lifetimeSeconds: request.expires_in_days * 24 * 3600,
      });
      return {
        id: row.id,
        name: request.name,
        scopes: request.scopes,
        created_at: iso(row.created_at),
        last_used_at: null,
        expires_at: iso(row.expires_at),
        key,
      };
    },

    async listApiKeys(auth: RequestAuth): Promise<ApiKeySummary[]> {
      const rows = await queries.listAccessTokens(auth.user.id, "api_key");
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        scopes: row.scopes.filter(isApiKeyScope),
        created_at: iso(row.created_at),
        last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
        expires_at: iso(row.expires_at),
      }));
    },
  };
}
