import type { AuthQueries } from "./queries.ts";

/** Prunes expired limits, old sessions and spent links every hour, in every instance (idempotent). */
export function createHousekeeping(queries: AuthQueries) {
  let housekeeping: NodeJS.Timeout | null = null;
  return {
    startHousekeeping(onError: (error: unknown) => void) {
      housekeeping ??= setInterval(() => void queries.pruneExpired().catch(onError), 3_600_000);
      housekeeping.unref();
    },
    stopHousekeeping() {
      if (housekeeping) clearInterval(housekeeping);
      housekeeping = null;
    },
  };
}
