import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

export interface DirectoryLock {
  path: string;
  release(): void;
}

export class DirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The embedded database at ${dataDir} is already in use by another process (pid ${ownerPid}). ` +
        "One process runs the embedded database of a data directory: stop that process, or set " +
        "EMBEDDED_DB_DIR to another directory, or use DATABASE_URL for a PostgreSQL server shared by " +
        "several processes.",
    );
    this.name = "DirectoryLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The locks this process holds: a lock file naming its pid is stale unless listed here. */
const heldHere = new Set<string>();

/**
 * An exclusive lock beside `dataDir` (`<dataDir>.lock`, holding the owner's pid). A lock left by a
 * process that no longer runs is taken over, and so is one naming this process's pid that this
 * process never took: an earlier process had the same pid (a container's server is pid 1 at every
 * start) and was killed before it could remove it.
 */
export function acquireDirectoryLock(dataDir: string): DirectoryLock {
  const path = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(path);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(path);
        process.off("exit", release);
        rmSync(path, { force: true });
      };
      process.on("exit", release);
      return { path, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const ownerPid = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isInteger(ownerPid) && ownerPid !== process.pid && isAlive(ownerPid)) {
        throw new DirectoryLockedError(dataDir, ownerPid);
      }
      if (heldHere.has(path)) throw new DirectoryLockedError(dataDir, process.pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}`);
}
