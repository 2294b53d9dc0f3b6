import type { App } from "../app.ts";
import type { Database } from "../db/client.ts";
import { randomToken, sha256 } from "../modules/auth/credentials.ts";
import { prepareAuthQueries } from "../modules/auth/queries.ts";
import { SESSION_IDLE_SECONDS } from "../modules/auth/sessions.ts";
import { createUserFromArguments } from "../modules/users/create-user.ts";
import { createApiCaller, uniqueEmail } from "./api-client.ts";

/** A TOTP secret for test staff: staff must have a second factor (PRODUCT.md §7). */
const TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** A staff account as `user:create --staff` makes it, with its second factor on. */
export async function createStaffUser(database: Database): Promise<number> {
  const { id } = await createUserFromArguments(database, [
    "--staff",
    "--email",
    uniqueEmail("staff"),
    "--name",
    "Staff",
    "--password",
    "staff password",
  ]);
  await database.sql.query("update users set totp_secret = $2 where id = $1", [id, TEST_TOTP_SECRET]);
  return id;
}

/** A live session for `userId`, made directly (signing in with a TOTP code is tested elsewhere). */
export async function createSessionSecret(database: Database, userId: number) {
  const secret = randomToken();
  const queries = prepareAuthQueries(database.sql);
  await queries.createSession({
    tokenHash: sha256(secret),
    userId,
    userAgent: "test",
    ip: "127.0.0.1",
    lifetimeSeconds: SESSION_IDLE_SECONDS,
  });
  const session = await queries.findLiveSession(sha256(secret));
  return { secret, id: session?.id ?? 0 };
}

/** A caller signed in as a new staff member. */
export async function createStaffCaller(app: App, database: Database) {
  const caller = createApiCaller(app, { ip: "10.250.0.1" });
  caller.cookies.set(
    "pressguard_session",
    (await createSessionSecret(database, await createStaffUser(database))).secret,
  );
  return caller;
}
