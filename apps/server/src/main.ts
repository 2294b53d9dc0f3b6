import inspector from "node:inspector";
import pino from "pino";
import { ConfigError, loadConfig } from "./config.ts";
import type { Database } from "./db/client.ts";
import { DirectoryLockedError } from "./db/directory-lock.ts";
import { openConfiguredDatabase } from "./db/embedded-database.ts";
import { EmbeddedPostgresError } from "./db/embedded-postgres.ts";
import { seedOnFirstStart } from "./db/first-start-seed.ts";
import { PortInUseError, startPreparingServer } from "./http/preparing-server.ts";
import { DEFAULT_STALL_LIMIT_SECONDS, startStallWatchdog } from "./stall-watchdog.ts";
import { logStartupBanner } from "./startup-banner.ts";

/** Process entry: read config, open and prepare the database, build the app, listen, drain on SIGTERM. */
async function main() {
  const args = new Set(process.argv.slice(2));
  const config = loadConfig();
  const startedAt = performance.now();
  const webMode = args.has("--api-only") ? null : args.has("--dev") ? "development" : "production";
  // React picks its development or production build from NODE_ENV when first imported, so it is set
  // before app.ts (and React with it) loads. The config keeps the operator's own NODE_ENV.
  if (webMode === "production") process.env.NODE_ENV = "production";
  // The port answers at once (503, a progress page) while the database is opened, migrated and, on the
  // first start, filled with the bundled data.
  const preparing = await startPreparingServer({ host: config.host, port: config.port });
  // The application's modules (and the web build) load while the database is opened and filled: the
  // first start's import leaves the main thread idle whenever it waits for the parsing worker.
  const modules = loadApplicationModules(webMode === "production");
  modules.catch(() => {}); // awaited below; a failure is reported there, not as an unhandled rejection
  let database: Database;
  try {
    database = await openConfiguredDatabase(
      config.database,
      pino({ level: config.logLevel, name: "database" }),
      preparing.copying,
    );
    await database.migrate();
    if (config.seed === "auto") await seedOnFirstStart(database, { onProgress: preparing.update });
  } catch (error) {
    await preparing.close();
    throw error;
  }

  const { buildApp, DEFAULT_BUILD_DIR, requestLogSerializer } = await modules;
  const app = await buildApp({
    config,
    database,
    // Signed links and magic-link ids in URLs are secrets: request lines log them redacted.
    logger: { level: config.logLevel, serializers: { req: requestLogSerializer } },
    ...(webMode && { web: { mode: webMode, buildDir: DEFAULT_BUILD_DIR } }),
  });

  let closing = false;
  // From here on a loop that stops turning ends the process (the first start's import and the
  // migrations, which may legitimately hold it for long on a large embedded database, are before).
  // A developer's breakpoint holds the loop too: with a debugger, only an explicit limit applies.
  const stallLimitSeconds = config.stallLimitSeconds ?? (inspector.url() ? 0 : DEFAULT_STALL_LIMIT_SECONDS);
  const watchdog =
    stallLimitSeconds > 0
      ? startStallWatchdog({
          limitMs: stallLimitSeconds * 1000,
          removeOnStall: database.lockPath ? [database.lockPath] : [],
          ...(database.enginePid && { interruptOnStall: database.enginePid }),
          onError: (error) =>
            app.log.error({ err: error }, "the stall watchdog stopped; the process goes on"),
        })
      : null;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    watchdog?.stop();
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

async function loadApplicationModules(production: boolean) {
  const [{ buildApp }, { DEFAULT_BUILD_DIR, loadServerBuild }, { requestLogSerializer }] = await Promise.all([
    import("./app.ts"),
    import("./http/web.ts"),
    import("./http/log-redaction.ts"),
  ]);
  if (production) await loadServerBuild(DEFAULT_BUILD_DIR).catch(() => {}); // registerWeb reports it
  return { buildApp, DEFAULT_BUILD_DIR, requestLogSerializer };
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DirectoryLockedError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof PortInUseError
  ) {
    console.error(error.message);
  } else {
    console.error("Pressguard failed to start:", error);
  }
  process.exit(1);
});
