import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDirectoryLock, type DirectoryLock, DirectoryLockedError } from "./directory-lock.ts";

const held: DirectoryLock[] = [];
const made: string[] = [];
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function tempDataDir() {
  const directory = mkdtempSync(join(tmpdir(), "pressguard-lock-"));
  made.push(directory);
  return join(directory, "pglite");
}

describe("acquireDirectoryLock", () => {
  it("refuses a second holder while the first is alive, naming its pid", () => {
    const dataDir = tempDataDir();
    held.push(acquireDirectoryLock(dataDir));
    expect(() => acquireDirectoryLock(dataDir)).toThrowError(DirectoryLockedError);
    expect(() => acquireDirectoryLock(dataDir)).toThrowError(
      `already in use by another process (pid ${process.pid})`,
    );
  });

  it("refuses another process on the same directory", async () => {
    const dataDir = tempDataDir();
    held.push(acquireDirectoryLock(dataDir));
    const script = `import { acquireDirectoryLock } from ${JSON.stringify(join(import.meta.dirname, "directory-lock.ts"))};
      try { acquireDirectoryLock(${JSON.stringify(dataDir)}); process.exit(0); } catch (e) { console.log(e.message); process.exit(3); }`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(3);
    expect(output).toContain(`already in use by another process (pid ${process.pid})`);
  });

  it("takes over a lock holding its own pid that this process never took (a restarted container)", () => {
    // In a container the server is pid 1 at every start: a lock left by a killed start names the
    // pid of the new one, and refusing it would keep the instance down for good.
    const dataDir = tempDataDir();
    writeFileSync(`${dataDir}.lock`, String(process.pid));
    const lock = acquireDirectoryLock(dataDir);
    held.push(lock);
    expect(existsSync(lock.path)).toBe(true);
    // Taken now, by this process: a second opening in it is refused as before.
    expect(() => acquireDirectoryLock(dataDir)).toThrowError(DirectoryLockedError);
  });

  it("takes over a lock left by a process that is gone, and releases it", () => {
    const dataDir = tempDataDir();
    writeFileSync(`${dataDir}.lock`, "999999999");
    const lock = acquireDirectoryLock(dataDir);
    expect(existsSync(lock.path)).toBe(true);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });
});
