import type { SqlRunner } from "../../db/client.ts";

/** The signed-in user as every request sees it: one query, roles derived from profile and seat. */
export interface UserRow {
  id: number;
  name: string;
  email: string;
  is_staff: boolean;
  two_factor: boolean;
  email_verified_at: Date | string | null;
  has_password: boolean;
  researcher_uuid: string | null;
  researcher_profile_completed: boolean | null;
  vendor_id: number | null;
  vendor_name: string | null;
  vendor_role: string | null;
  vendor_account_completed: boolean | null;
  active_count: number | null;
}

const USER_SELECT = `
  select u.id, u.name, u.email, u.is_staff, u.totp_secret is not null as two_factor, u.email_verified_at,
         u.password_hash is not null as has_password,
         r.uuid::text as researcher_uuid, r.profile_completed_at is not null as researcher_profile_completed,
         v.id as vendor_id, v.vendor_name, vm.role as vendor_role,
         v.account_completed_at is not null as vendor_account_completed,
         case when v.id is null then null else
           (select count(*)::int from products p where p.vendor_id = v.id and p.is_active) end as active_count
  from users u
  left join lateral (
    select uuid, profile_completed_at from researchers where user_id = u.id order by id limit 1
  ) r on true
  left join lateral (
    select vendor_id, role from vendor_members where user_id = u.id order by created_at, vendor_id limit 1
  ) vm on true
  left join vendors v on v.id = vm.vendor_id`;

export function prepareAuthQueries(sql: SqlRunner) {
  return {
    async getUserById(id: number, tx: SqlRunner = sql): Promise<UserRow | null> {
      const { rows } = await tx.query<UserRow>(`${USER_SELECT} where u.id = $1`, [id]);
      return rows[0] ?? null;
    },

    async findCredentialsByEmail(email: string, tx: SqlRunner = sql) {
      const { rows } = await tx.query<{
        id: number;
        name: string;
        password_hash: string | null;
        totp_secret: string | null;
        totp_last_step: number | null;
      }>("select id, name, password_hash, totp_secret, totp_last_step from users where email = $1", [email]);
      return rows[0] ?? null;
    },

    /** Null when the address is taken. */
    async createUser(
      user: {
        name: string;
        email: string;
        passwordHash: string | null;
        isStaff?: boolean;
        verified?: boolean;
      },
      tx: SqlRunner = sql,
    ): Promise<number | null> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into users (name, email, password_hash, is_staff, email_verified_at)
         values ($1, $2, $3, $4, case when $5::boolean then now() end)
         on conflict (email) do nothing returning id`,
        [user.name, user.email, user.passwordHash, user.isStaff ?? false, user.verified ?? false],
      );
      return rows[0]?.id ?? null;
    },

    async createResearcherProfile(userId: number, displayName: string, tx: SqlRunner = sql) {
      await tx.query(
        `insert into researchers (display_name, user_id)
         select $2, $1 where not exists (select 1 from researchers where user_id = $1)`,
        [userId, displayName],
      );
    },

    async createVendorWithOwner(
      userId: number,
      vendor: { vendorName: string; contactEmail: string; contactPerson: string },
      tx: SqlRunner = sql,
    ) {
      const existing = await tx.query("select 1 from vendor_members where user_id = $1", [userId]);
      if (existing.rows.length > 0) return;
      const { rows } = await tx.query<{ id: number }>(
        `insert into vendors (vendor_name, contact_email, contact_person) values ($1, $2, $3) returning id`,
        [vendor.vendorName, vendor.contactEmail, vendor.contactPerson],
      );
      await tx.query(`insert into vendor_members (vendor_id, user_id, role) values ($1, $2, 'owner')`, [
        rows[0]?.id,
        userId,
      ]);
    },

    async setPassword(userId: number, passwordHash: string, tx: SqlRunner = sql) {
      await tx.query("update users set password_hash = $2, updated_at = now() where id = $1", [
        userId,
        passwordHash,
      ]);
    },

    async getTwoFactorState(userId: number) {
      const { rows } = await sql.query<{
        totp_secret: string | null;
        totp_pending_secret: string | null;
        totp_last_step: number | null;
      }>("select totp_secret, totp_pending_secret, totp_last_step from users where id = $1", [userId]);
      return rows[0] ?? null;
    },

    async setPendingTotpSecret(userId: number, secret: string) {
      await sql.query("update users set totp_pending_secret = $2, updated_at = now() where id = $1", [
        userId,
        secret,
      ]);
    },

    /** Records the accepted step, unless one at least as late was already used (replay). */
    async acceptTotpStep(userId: number, step: number): Promise<boolean> {
      const { rows } = await sql.query(
        `update users set totp_last_step = $2::int
         where id = $1 and (totp_last_step is null or totp_last_step < $2::int) returning id`,
        [userId, step],
      );
      return rows.length > 0;
    },

    async enableTotp(userId: number, step: number) {
      await sql.query(
        `update users set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_last_step = $2::int,
           updated_at = now() where id = $1`,
        [userId, step],
      );
    },

    async disableTotp(userId: number) {
      await sql.query(
        "update users set totp_secret = null, totp_pending_secret = null, totp_last_step = null, updated_at = now() where id = $1",
        [userId],
      );
    },

    async markEmailVerified(userId: number, tx: SqlRunner = sql) {
      await tx.query(
        "update users set email_verified_at = coalesce(email_verified_at, now()), updated_at = now() where id = $1",
        [userId],
      );
    },

    // Sessions

    async createSession(
      session: {
        tokenHash: string;
        userId: number;
        userAgent: string | null;
        ip: string;
        lifetimeSeconds: number;
      },
      tx: SqlRunner = sql,
    ) {
      await tx.query(
        `insert into sessions (token_hash, user_id, user_agent, ip, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(secs => $5::int))`,
        [session.tokenHash, session.userId, session.userAgent, session.ip, session.lifetimeSeconds],
      );
    },

    async findLiveSession(tokenHash: string) {
      const { rows } = await sql.query<{ id: number; user_id: number; seconds_since_seen: number }>(
        `select id, user_id, extract(epoch from now() - last_seen_at)::float8 as seconds_since_seen
         from sessions where token_hash = $1 and revoked_at is null and expires_at > now()`,
        [tokenHash],
      );
      return rows[0] ?? null;
    },

    /** Sliding expiry: each sign of life pushes the end of the session out again. */
    async touchSession(id: number, ip: string, lifetimeSeconds: number) {
      await sql.query(
        `update sessions set last_seen_at = now(), ip = $2, expires_at = now() + make_interval(secs => $3::int)
         where id = $1`,
        [id, ip, lifetimeSeconds],
      );
    },

    async listSessions(userId: number) {
      const { rows } = await sql.query<{
        id: number;
        user_agent: string | null;
        ip: string | null;
        created_at: Date | string;
        last_seen_at: Date | string;
        expires_at: Date | string;
      }>(
        `select id, user_agent, ip, created_at, last_seen_at, expires_at from sessions
         where user_id = $1 and revoked_at is null and expires_at > now() order by last_seen_at desc`,
        [userId],
      );
      return rows;
    },

    /**
     * The user's live Bearer credentials of one kind: login tokens (token mode: one per signed-in
     * browser or client) or API keys (decision 028).
     */
    async listAccessTokens(userId: number, kind: AccessTokenKind) {
      const { rows } = await sql.query<{
        id: number;
        name: string;
        scopes: string[];
        created_at: Date | string;
        last_used_at: Date | string | null;
        expires_at: Date | string;
      }>(
        `select id, name, scopes, created_at, last_used_at, expires_at from personal_access_tokens
         where user_id = $1 and kind = $2 and revoked_at is null and expires_at > now()
         order by coalesce(last_used_at, created_at) desc, id desc`,
        [userId, kind],
      );
      return rows;
    },

    async countLiveAccessTokens(userId: number, kind: AccessTokenKind): Promise<number> {
      const { rows } = await sql.query<{ count: number }>(
        `select count(*)::int as count from personal_access_tokens
         where user_id = $1 and kind = $2 and revoked_at is null and expires_at > now()`,
        [userId, kind],
      );
      return rows[0]?.count ?? 0;
    },

    /** Returns whether a live token of this user was revoked. */
    async revokeUserAccessToken(userId: number, tokenId: number): Promise<boolean> {
      const { rows } = await sql.query(
        `update personal_access_tokens set revoked_at = now()
         where id = $1 and user_id = $2 and revoked_at is null returning id`,
        [tokenId, userId],
      );
      return rows.length > 0;
    },

    /** Returns whether a live session of this user was revoked. */
    async revokeSession(userId: number, sessionId: number, tx: SqlRunner = sql): Promise<boolean> {
      const { rows } = await tx.query(
        `update sessions set revoked_at = now() where id = $1 and user_id = $2 and revoked_at is null returning id`,
        [sessionId, userId],
      );
      return rows.length > 0;
    },

    async revokeAllCredentials(userId: number, tx: SqlRunner = sql) {
      await tx.query("update sessions set revoked_at = now() where user_id = $1 and revoked_at is null", [
        userId,
      ]);
      await tx.query(
        "update personal_access_tokens set revoked_at = now() where user_id = $1 and revoked_at is null",
        [userId],
      );
    },

    /** Ends every session and token of the user but the ones given (the caller's own). */
    async revokeOtherCredentials(
      userId: number,
      keep: { sessionId: number | null; tokenId: number | null },
      tx: SqlRunner = sql,
    ) {
      await tx.query(
        `update sessions set revoked_at = now()
         where user_id = $1 and revoked_at is null and id is distinct from $2::bigint`,
        [userId, keep.sessionId],
      );
      await tx.query(
        `update personal_access_tokens set revoked_at = now()
         where user_id = $1 and revoked_at is null and id is distinct from $2::bigint`,
        [userId, keep.tokenId],
      );
    },

    /**
     * Whether the caller's session or login token was made (signed in) less than `minutes` ago; an
     * API key, or neither, is never a recent sign-in.
     */
    async signedInWithin(
      caller: { sessionId: number | null; tokenId: number | null; via: string },
      minutes: number,
    ): Promise<boolean> {
      const [table, id] =
        caller.via === "session"
          ? ["sessions", caller.sessionId]
          : caller.via === "token"
            ? ["personal_access_tokens", caller.tokenId]
            : [null, null];
      if (!table || id === null) return false;
      const { rows } = await sql.query<{ recent: boolean }>(
        `select created_at > now() - make_interval(mins => $2::int) as recent from ${table} where id = $1`,
        [id, minutes],
      );
      return rows[0]?.recent === true;
    },

    // Personal access tokens: login tokens and API keys (decision 028)

    /**
     * A login token lives `idleSeconds` after its last use and `lifetimeSeconds` after its issue at
     * most (`findLiveAccessToken` slides it); an API key lives `lifetimeSeconds`, fixed.
     */
    async createAccessToken(
      token: {
        tokenHash: string;
        userId: number;
        name: string;
        kind: AccessTokenKind;
        scopes?: readonly string[];
        lifetimeSeconds: number;
        idleSeconds?: number;
      },
      tx: SqlRunner = sql,
    ) {
      const { rows } = await tx.query<{
        id: number;
        created_at: Date | string;
        expires_at: Date | string;
      }>(
        `insert into personal_access_tokens (token_hash, user_id, name, kind, scopes, expires_at)
         values ($1, $2, $3, $4, $5::text[],
           now() + make_interval(secs => least($6::int, coalesce($7::int, $6::int))))
         returning id, created_at, expires_at`,
        [
          token.tokenHash,
          token.userId,
          token.name,
          token.kind,
          token.scopes ?? [],
          token.lifetimeSeconds,
          token.idleSeconds ?? null,
        ],
      );
      const row = rows[0];
      if (!row) throw new Error("personal access token not created");
      return row;
    },

    /**
     * The live token with this hash. Its use is written at most once a minute (an API key may be
     * used many times a second), and then a login token's expiry slides to `idleSeconds` from now,
     * never past `lifetimeSeconds` after its issue. One round trip either way.
     */
    async findLiveAccessToken(tokenHash: string, lifetime: { idleSeconds: number; lifetimeSeconds: number }) {
      const { rows } = await sql.query<{
        id: number;
        user_id: number;
        kind: AccessTokenKind;
        scopes: string[];
      }>(
        `with found as (
           select id, user_id, kind, scopes from personal_access_tokens
           where token_hash = $1 and revoked_at is null and expires_at > now()
         ), used as (
           update personal_access_tokens t set last_used_at = now(),
             expires_at = case when t.kind = 'login' then least(
               t.created_at + make_interval(secs => $3::int), now() + make_interval(secs => $2::int))
               else t.expires_at end
           from found
           where t.id = found.id and (t.last_used_at is null or t.last_used_at < now() - interval '1 minute')
         )
         select id, user_id, kind, scopes from found`,
        [tokenHash, lifetime.idleSeconds, lifetime.lifetimeSeconds],
      );
      return rows[0] ?? null;
    },

    async revokeAccessToken(id: number) {
      await sql.query("update personal_access_tokens set revoked_at = now() where id = $1", [id]);
    },

    // One-time tokens (magic links, verification, reset)

    async createOneTimeToken(
      token: { kind: OneTimeTokenKind; tokenHash: string; userId: number; lifetimeSeconds: number },
      tx: SqlRunner = sql,
    ) {
      await tx.query(
        `insert into one_time_tokens (kind, token_hash, user_id, expires_at)
         values ($1, $2, $3, now() + make_interval(secs => $4::int))`,
        [token.kind, token.tokenHash, token.userId, token.lifetimeSeconds],
      );
    },

    /**
     * Marks the token used and returns it, atomically: of two concurrent uses only one wins.
     * `state` tells why a token could not be used.
     */
    async consumeOneTimeToken(
      kind: OneTimeTokenKind,
      tokenHash: string,
      tx: SqlRunner = sql,
    ): Promise<{ state: "ok"; userId: number } | { state: "unknown" | "used" | "expired" }> {
      const { rows } = await tx.query<{ user_id: number }>(
        `update one_time_tokens set used_at = now()
         where kind = $1 and token_hash = $2 and used_at is null and expires_at > now() returning user_id`,
        [kind, tokenHash],
      );
      if (rows[0]) return { state: "ok", userId: rows[0].user_id };
      const found = await tx.query<{ used: boolean }>(
        "select used_at is not null as used from one_time_tokens where kind = $1 and token_hash = $2",
        [kind, tokenHash],
      );
      const row = found.rows[0];
      if (!row) return { state: "unknown" };
      return { state: row.used ? "used" : "expired" };
    },

    // Rate limits

    /** Counts one hit in a fixed window; returns the hits so far and the seconds until the window ends. */
    async hitRateLimit(key: string, windowSeconds: number) {
      const { rows } = await sql.query<{ hits: number; seconds_left: number }>(
        `insert into rate_limits (key, hits, reset_at) values ($1, 1, now() + make_interval(secs => $2::int))
         on conflict (key) do update set
           hits = case when rate_limits.reset_at <= now() then 1 else rate_limits.hits + 1 end,
           reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
         returning hits, extract(epoch from reset_at - now())::float8 as seconds_left`,
        [key, windowSeconds],
      );
      const row = rows[0];
      return {
        hits: row?.hits ?? 1,
        secondsLeft: Math.max(1, Math.ceil(row?.seconds_left ?? windowSeconds)),
      };
    },

    /**
     * A failure streak (failed sign-ins of one client on one account) lives in rate_limits: `hits`
     * counts the failures, `reset_at` is the last failure plus `memorySeconds`, when it is forgotten.
     */
    async recordFailure(key: string, memorySeconds: number, tx: SqlRunner = sql): Promise<number> {
      const { rows } = await tx.query<{ hits: number }>(
        `insert into rate_limits (key, hits, reset_at) values ($1, 1, now() + make_interval(secs => $2::int))
         on conflict (key) do update set
           hits = case when rate_limits.reset_at <= now() then 1 else rate_limits.hits + 1 end,
           reset_at = excluded.reset_at
         returning hits`,
        [key, memorySeconds],
      );
      return rows[0]?.hits ?? 1;
    },

    /** The live failure streak under `key`: how many failures, and the seconds since the last one. */
    async findFailureStreak(key: string, memorySeconds: number, tx: SqlRunner = sql) {
      const { rows } = await tx.query<{ hits: number; seconds_since_last: number }>(
        `select hits,
                extract(epoch from now() - (reset_at - make_interval(secs => $2::int)))::float8 as seconds_since_last
         from rate_limits where key = $1 and reset_at > now()`,
        [key, memorySeconds],
      );
      const row = rows[0];
      return row ? { failures: row.hits, secondsSinceLast: Math.max(0, row.seconds_since_last) } : null;
    },

    /** Housekeeping: drops what can no longer matter; returns how many rows went. */
    async pruneExpired(): Promise<number> {
      const results = await Promise.all([
        sql.query("delete from rate_limits where reset_at < now() returning key"),
        sql.query(
          `delete from sessions where expires_at < now() - interval '30 days'
             or revoked_at < now() - interval '30 days' returning id`,
        ),
        sql.query("delete from one_time_tokens where expires_at < now() - interval '7 days' returning id"),
        sql.query(
          `delete from personal_access_tokens where expires_at < now() - interval '30 days'
             or revoked_at < now() - interval '30 days' returning id`,
        ),
      ]);
      return results.reduce((total, result) => total + result.rows.length, 0);
    },

    async clearRateLimit(key: string) {
      await sql.query("delete from rate_limits where key = $1", [key]);
    },
  };
}

export type AccessTokenKind = "login" | "api_key";
export type OneTimeTokenKind = "magic_link" | "email_verification" | "password_reset";
export type AuthQueries = ReturnType<typeof prepareAuthQueries>;
