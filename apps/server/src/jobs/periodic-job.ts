/**
 * Runs a job now (unless `runNow` is false; after `firstRunAfterSeconds` when given) and every
 * `intervalSeconds` (unref'd) until stopped; a run never overlaps the last,
 * and a failed run is handed to `onError` and the timer goes on. Shared by the background jobs.
 */
export function periodicRunner(
  runOnce: () => Promise<unknown>,
  { runNow = true, firstRunAfterSeconds }: { runNow?: boolean; firstRunAfterSeconds?: number } = {},
) {
  let timer: NodeJS.Timeout | null = null;
  let firstTimer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  return {
    start(intervalSeconds: number, onError: (error: unknown) => void) {
      if (timer) return;
      const run = () => {
        if (running) return;
        running = runOnce()
          .then(() => undefined)
          .catch(onError)
          .finally(() => {
            running = null;
          });
      };
      timer = setInterval(run, intervalSeconds * 1000);
      timer.unref();
      if (firstRunAfterSeconds !== undefined) {
        firstTimer = setTimeout(run, firstRunAfterSeconds * 1000);
        firstTimer.unref();
      } else if (runNow) run();
    },

    /** Stops the timer and waits for a run under way. */
    async stop() {
      if (timer) clearInterval(timer);
      if (firstTimer) clearTimeout(firstTimer);
      timer = null;
      firstTimer = null;
      await running;
    },
  };
}
