import { createDeliveryService, type DeliveryServiceOptions } from "../modules/forwarding/public.ts";

/** The delivery queue's retry rules, as the worker applies them (its tests and bench/forwarding.ts). */
export {
  backoffSeconds,
  GIVE_UP_AFTER_MS,
  MAX_CONSECUTIVE_FAILURES,
} from "../modules/forwarding/public.ts";

export interface ForwardingWorkerOptions extends DeliveryServiceOptions {
  /** How often it looks for due deliveries besides the kicks (seconds). */
  pollSeconds: number;
  /** A pass (or a delivery) that failed: logged, the worker goes on. */
  onError?: (error: unknown) => void;
}

/**
 * The forwarding worker (ARCHITECTURE.md `jobs/`): the timer and the kicks of the forwarding module's
 * delivery queue (`forwarding/delivery-service.ts`, which claims due deliveries with FOR UPDATE SKIP
 * LOCKED plus a lease, sends and records them). A pass attempts batches until nothing is due; passes
 * never overlap, and a kick during one makes it look once more.
 */
export function createForwardingWorker(options: ForwardingWorkerOptions) {
  const deliveries = createDeliveryService(options);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  /** One batch: claims due deliveries and sends them; returns how many were claimed. */
  const runOnce = (): Promise<number> => deliveries.attemptDue();

  async function drain(): Promise<number> {
    let total = 0;
    do {
      again = false;
      let claimed = 0;
      do {
        claimed = await runOnce();
        total += claimed;
      } while (claimed > 0 && !stopped);
    } while (again && !stopped);
    return total;
  }

  /** Runs passes until nothing is due; a kick during a pass makes it look once more. */
  function kick(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((error: unknown) => {
        options.onError?.(error);
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    runOnce,
    kick,
    /** Kicks after the current transaction has had time to commit (the event's rows are then visible). */
    kickSoon() {
      if (stopped) return;
      setTimeout(() => void kick(), 20).unref();
    },
    start() {
      if (timer) return;
      stopped = false;
      timer = setInterval(() => void kick(), Math.max(50, options.pollSeconds * 1000));
      timer.unref();
      void kick();
    },
    /** Stops polling and waits for the running pass, so no lease is left behind on close. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
