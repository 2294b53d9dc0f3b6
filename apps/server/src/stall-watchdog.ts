import { Worker } from "node:worker_threads";

/** The limit when STALL_LIMIT_SECONDS is unset: far beyond any statement or job of ours. */
export const DEFAULT_STALL_LIMIT_SECONDS = 60;

export interface StallWatchdogOptions {
  /** The event loop not turning for this long ends the process. */
  limitMs: number;
  /** How often the watchdog looks; the loop marks each turn at half this interval. */
  checkEveryMs?: number;
  /** Files removed before the process ends, as its exit handlers would (the embedded database's lock). */
  removeOnStall?: string[];
  /**
   * Processes sent SIGINT before the process ends, as its exit handlers would: the embedded
   * PostgreSQL's postmaster (a fast shutdown), whose pid the cell holds (0: none) across its restarts.
   */
  interruptOnStall?: Int32Array<SharedArrayBuffer>;
  /** The watchdog's thread failed: the process goes on, unwatched. */
  onError?: (error: Error) => void;
}

export interface StallWatchdog {
  stop(): void;
}

/**
 * The watchdog's thread. It counts its own checks instead of reading a clock, so a machine that was
 * suspended (both threads paused) is not mistaken for a stalled loop. On a stall it writes one fatal
 * line in the server log's JSON form to standard error, removes the files it was given and kills the
 * process: the main thread cannot run a handler, and a supervisor restarts what has exited.
 */
const WATCHDOG_THREAD = `
const { workerData } = require("node:worker_threads");
const { rmSync, writeSync } = require("node:fs");
const { beats, stop, limitMs, checkEveryMs, removeOnStall, interruptOnStall } = workerData;
const turns = new Int32Array(beats);
const stopped = new Int32Array(stop);
// One check more than the limit holds: the loop may have turned just after the previous look.
const checksAllowed = Math.ceil(limitMs / checkEveryMs) + 1;
let last = Atomics.load(turns, 0);
let unchanged = 0;
while (Atomics.wait(stopped, 0, 0, checkEveryMs) === "timed-out") {
  const now = Atomics.load(turns, 0);
  if (now !== last) {
    last = now;
    unchanged = 0;
    continue;
  }
  if (++unchanged < checksAllowed) continue;
  const seconds = Math.round((unchanged * checkEveryMs) / 1000);
  const line = JSON.stringify({
    level: 60,
    time: Date.now(),
    pid: process.pid,
    msg: "the event loop has not turned for " + seconds + " s (a statement that never returns, or code " +
      "that never yields): ending the process so that its supervisor starts it again",
  });
  try { writeSync(2, line + "\\n"); } catch {}
  for (const pid of interruptOnStall ?? []) { if (pid > 0) { try { process.kill(pid, "SIGINT"); } catch {} } }
  for (const path of removeOnStall) { try { rmSync(path, { force: true }); } catch {} }
  process.kill(process.pid, "SIGKILL");
}
`;

/**
 * Ends the process when its event loop stops turning. A stalled loop answers nothing, not even
 * `/healthz`, yet never exits, so no supervisor notices it: the embedded database (PGlite) can spin
 * forever inside one statement (electric-sql/pglite#1058), which blocks the thread that runs it.
 */
export function startStallWatchdog({
  limitMs,
  checkEveryMs = 1000,
  removeOnStall = [],
  interruptOnStall,
  onError = () => {},
}: StallWatchdogOptions): StallWatchdog {
  const beats = new SharedArrayBuffer(4);
  const stop = new SharedArrayBuffer(4);
  const turns = new Int32Array(beats);
  const heartbeat = setInterval(() => Atomics.add(turns, 0, 1), Math.max(10, checkEveryMs / 2));
  heartbeat.unref();
  const worker = new Worker(WATCHDOG_THREAD, {
    eval: true,
    // None of the process's flags (tsx's loader, --input-type): the thread is plain CommonJS.
    execArgv: [],
    workerData: { beats, stop, limitMs, checkEveryMs, removeOnStall, interruptOnStall },
  });
  // Without a listener, an error of the thread would end the process it is there to keep answering.
  worker.on("error", onError);
  worker.unref();
  return {
    stop() {
      clearInterval(heartbeat);
      const stopped = new Int32Array(stop);
      Atomics.store(stopped, 0, 1);
      Atomics.notify(stopped, 0);
    },
  };
}
