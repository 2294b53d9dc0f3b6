import { ConfigError, loadConfig } from "./config.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { DirectoryLockedError } from "./db/directory-lock.ts";
import { seedOnFirstStart } from "./db/first-start-seed.ts";
import { PortInUseError, startPreparingServer } from "./http/preparing-server.ts";
import { logStartupBanner } from "./startup-banner.ts";

/** Process entry: read config, open and prepare the database, build the app, listen, drain on SIGTERM. */
async function main() {
  const args = new Set(process.argv.slice(2));
  const config = loadConfig();
  const startedAt = performance.now();
  // The port answers at once (503, a progress page) while the database is opened, migrated and, on the
  // first start, filled with the bundled data.
  const preparing = await startPreparingServer({ host: config.host, port: config.port });
  let database: Database;
  try {
    database = await openDatabase(config.database);
    await database.migrate();
    if (config.seed === "auto") await seedOnFirstStart(database, { onProgress: preparing.update });
  } catch (error) {
    await preparing.close();
    throw error;
  }

  const webMode = args.has("--api-only") ? null : args.has("--dev") ? "development" : "production";
  // React picks its development or production build from NODE_ENV when first imported, so it is set
  // before app.ts (and React with it) loads. The config keeps the operator's own NODE_ENV.
  if (webMode === "production") process.env.NODE_ENV = "production";
  const { buildApp } = await import("./app.ts");
  const { DEFAULT_BUILD_DIR } = await import("./http/web.ts");
  const { requestLogSerializer } = await import("./http/log-redaction.ts");
  const app = await buildApp({
    config,
    database,
    // Signed links and magic-link ids in URLs are secrets: request lines log them redacted.
    logger: { level: config.logLevel, serializers: { req: requestLogSerializer } },
    ...(webMode && { web: { mode: webMode, buildDir: DEFAULT_BUILD_DIR } }),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: draining requests");
    const timer = setTimeout(() => {
      app.log.error("requests did not drain within 10 s; exiting");
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await preparing.close();
  const address = await app.listen({ port: preparing.port, host: config.host });
  app.log.info(
    `Pressguard ready on ${address} (${database.kind}) in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  logStartupBanner(app.log, config, { address });
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DirectoryLockedError ||
    error instanceof PortInUseError
  ) {
    console.error(error.message);
  } else {
    console.error("Pressguard failed to start:", error);
  }
  process.exit(1);
});
