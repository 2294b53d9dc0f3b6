import { ConfigError, loadConfig } from "../../config.ts";
import { DirectoryLockedError } from "../../db/directory-lock.ts";
import { openDatabaseForCommand } from "../../db/embedded-database.ts";
import { CREATE_USER_USAGE, createUserFromArguments } from "./create-user.ts";

/** `npm run user:create -- --staff --email … --name … --password …` */
async function main() {
  const config = loadConfig();
  const database = await openDatabaseForCommand(config.database);
  try {
    await database.migrate();
    const user = await createUserFromArguments(database, process.argv.slice(2));
    console.info(
      `Created user #${user.id} <${user.email}>${user.is_staff ? " (staff)" : ""}${user.roles.length ? ` with roles: ${user.roles.join(", ")}` : ""}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DirectoryLockedError) console.error(error.message);
  else console.error(error instanceof Error ? `${error.message}\n${CREATE_USER_USAGE}` : error);
  process.exit(1);
});
