import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { moveAttachmentsInto } from "../modules/reports/attachment-store.ts";
import { PARTIAL_UPLOAD_MAX_IDLE_MS } from "../modules/reports/attachments.ts";
import type { Services } from "./services.ts";

/**
 * A background concern of the server (a job, a worker, a sweeper, a flusher): started when the app
 * starts and stopped, each by its own close hook, when it closes. `start` may be async (a first pass
 * before the app answers, as the upload sweeper's).
 */
interface BackgroundTask {
  start(): void | Promise<void>;
  stop(): unknown;
}

/**
 * Registers a background task as a plugin of its own: it starts as the plugin loads (in the order
 * the app registers them) and adds its own close hook.
 */
export async function runInBackground(app: FastifyInstance, task: BackgroundTask): Promise<void> {
  await app.register(async (scope) => {
    await task.start();
    scope.addHook("onClose", async () => {
      await task.stop();
    });
  });
}

/** A job that runs every `intervalSeconds`, its failures logged under `failure` (a message). */
function periodicTask(
  app: FastifyInstance,
  job: { start(intervalSeconds: number, onError: (error: unknown) => void): void; stop(): unknown },
  intervalSeconds: number,
  failure: string,
): BackgroundTask {
  return {
    start: () => job.start(intervalSeconds, (error) => app.log.error({ err: error }, failure)),
    stop: () => job.stop(),
  };
}

/** The jobs, workers and sweepers, each a plugin that starts here and stops at the app's close. */
export async function startBackgroundTasks(
  app: FastifyInstance,
  config: Config,
  database: Database,
  services: Services,
  apiRateLimiter: { start(): void; stop(): unknown },
) {
  const { mailer, auth, s3Store, uploads, attachments, attachmentStores } = services;
  await runInBackground(app, { start() {}, stop: () => services.dataVersion.stop() });
  await runInBackground(app, apiRateLimiter);
  await runInBackground(app, mailer);
  await runInBackground(app, {
    start: () => auth.startHousekeeping((error) => app.log.error({ err: error }, "auth housekeeping failed")),
    stop: () => auth.stopHousekeeping(),
  });
  await runInBackground(app, services.forwardingWorker);
  if (s3Store) await runInBackground(app, { start() {}, stop: () => s3Store.close() });
  // The files of an installation from before (ATTACHMENTS_DIR), or the database's when S3 was
  // configured since, move into the store; a failure is logged and tried again at the next start.
  await moveAttachmentsInto(attachments, { database, spool: uploads, sources: attachmentStores }).then(
    ({ moved, unreadable }) => {
      if (moved > 0) app.log.info({ moved, store: attachments.kind }, "attachments moved into the store");
      if (unreadable > 0)
        app.log.warn(
          { unreadable },
          "attachments missing or damaged where they were: left there, answered 404",
        );
    },
    (error: unknown) => app.log.error({ err: error }, "moving attachments into the store failed"),
  );
  // Partial uploads of a process killed mid-upload are removed at start (and then now and again),
  // and so are objects an instance put into S3 before it was killed, without their row.
  const onSweepError = (error: unknown) => app.log.error({ err: error }, "sweeping partial uploads failed");
  let uploadSweeper: { stop(): void } | undefined;
  await runInBackground(app, {
    start: async () => {
      uploadSweeper = await uploads.startSweeping(onSweepError);
    },
    stop: () => uploadSweeper?.stop(),
  });
  if (s3Store) {
    let objectSweeper: NodeJS.Timeout | undefined;
    await runInBackground(app, {
      start: () => {
        const sweepObjects = () => void s3Store.sweep(PARTIAL_UPLOAD_MAX_IDLE_MS).catch(onSweepError);
        sweepObjects();
        objectSweeper = setInterval(sweepObjects, PARTIAL_UPLOAD_MAX_IDLE_MS);
        objectSweeper.unref();
      },
      stop: () => clearInterval(objectSweeper),
    });
  }
  const deadlineSeconds = config.deadlineJobIntervalSeconds;
  await runInBackground(
    app,
    periodicTask(app, services.deadlineJob, deadlineSeconds, "report deadline job failed"),
  );
  await runInBackground(
    app,
    periodicTask(app, services.exploitationJob, deadlineSeconds, "CRA reminder job failed"),
  );
  await runInBackground(
    app,
    periodicTask(app, services.watchAlertJob, config.watchAlertIntervalSeconds, "watchlist alert job failed"),
  );
  // Upstream feeds keep the records current (decision 035): once per interval across all instances.
  if (services.dataSources.hasConfiguredSources())
    await runInBackground(
      app,
      periodicTask(app, services.dataSyncJob, config.dataSources.intervalSeconds, "data source sync failed"),
    );
}
