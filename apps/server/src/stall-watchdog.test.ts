import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const WATCHDOG = join(import.meta.dirname, "stall-watchdog.ts");
const directory = mkdtempSync(join(tmpdir(), "pressguard-watchdog-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs `body` in a new Node process with the watchdog started (limit 1.5 s, a look every 250 ms). */
function runWithWatchdog(body: string, lockPath: string) {
  const script = `
    import { startStallWatchdog } from ${JSON.stringify(WATCHDOG)};
    startStallWatchdog({ limitMs: 1500, checkEveryMs: 250, removeOnStall: [${JSON.stringify(lockPath)}] });
    const busy = (ms) => { const until = Date.now() + ms; while (Date.now() < until); };
    ${body}
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { PATH: process.env.PATH ?? "" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const startedAt = performance.now();
  return new Promise<{ code: number | null; signal: string | null; stderr: string; seconds: number }>(
    (resolve) =>
      child.on("exit", (code, signal) =>
        resolve({ code, signal, stderr, seconds: (performance.now() - startedAt) / 1000 }),
      ),
  );
}

describe("the stall watchdog", () => {
  it("ends a process whose event loop stopped turning, says why, and removes its lock", async () => {
    const lockPath = join(directory, "stalled.lock");
    writeFileSync(lockPath, "1");
    // A statement that never returns holds the thread as this loop does (electric-sql/pglite#1058).
    const result = await runWithWatchdog("setTimeout(() => { for (;;); }, 300);", lockPath);
    expect(result.signal).toBe("SIGKILL");
    const line = JSON.parse(result.stderr.trim().split("\n").at(-1) ?? "{}") as {
      level?: number;
      msg?: string;
    };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/^the event loop has not turned for \d+ s/);
    expect(existsSync(lockPath)).toBe(false);
    // Killed after the limit, not long after it (1.5 s, plus the process's own start).
    expect(result.seconds).toBeLessThan(10);
  }, 20_000);

  it("leaves alone a loop that is busy but turns, and does not keep the process alive", async () => {
    const lockPath = join(directory, "busy.lock");
    writeFileSync(lockPath, "1");
    // Three seconds of 600 ms blocks, each under the limit; then nothing is left to do.
    const result = await runWithWatchdog(
      "let n = 0; const tick = () => { busy(600); if (++n < 5) setTimeout(tick, 5); }; tick();",
      lockPath,
    );
    expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
    expect(result.stderr).not.toContain("has not turned");
    expect(existsSync(lockPath)).toBe(true);
  }, 20_000);
});
