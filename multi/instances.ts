import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { withAdminClient as withClient } from "../apps/server/src/db/test-database.ts";
import { findFreePort } from "../apps/server/src/smoke/server-process.ts";

/**
 * What the two-instance suite runs (decision 022): a database of its own on the PostgreSQL server CI
 * provides, two production servers started as `npm start` starts one, and Debian's nginx proxying to
 * both, each with its own temporary directory, all removed at the end. Installs nothing.
 */

const ROOT = resolve(import.meta.dirname, "..");
const NGINX = process.env.MULTI_NGINX ?? "/usr/sbin/nginx";

/** The PostgreSQL server: CI's (PG_TEST_URL), else DATABASE_URL, else the local default. */
const SERVER_URL =
  process.env.MULTI_DATABASE_URL ??
  process.env.PG_TEST_URL ??
  process.env.DATABASE_URL ??
  "postgres://pressguard:pressguard@127.0.0.1:5432/postgres";

/** A new database `pressguard_multi_<random>` on the server; `drop()` removes it. */
export async function createDatabase() {
  const name = `pressguard_multi_${randomBytes(5).toString("hex")}`;
  await withClient(SERVER_URL, (client) => client.query(`create database ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: <Row = Record<string, unknown>>(text: string, params?: unknown[]) =>
      withClient(url.toString(), async (client) => (await client.query(text, params)).rows as Row[]),
    drop: () =>
      withClient(SERVER_URL, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

/** The web build `npm start` checks before it starts (built here once, not by both servers at once). */
export function ensureBuild() {
  const built = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the production build failed:\n${built.stdout}\n${built.stderr}`);
}

export interface Instance {
  name: string;
  port: number;
  origin: string;
  log: string;
  stop(): Promise<void>;
}

/** `npm start` (the production build, web and API) in a process group of its own, ready at /healthz. */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  workDir: string,
): Promise<Instance> {
  const port = await findFreePort();
  const log = join(workDir, `${name}.log`);
  const output = openSync(log, "a");
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? workDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      // A local directory per instance: nothing on disk is shared.
      ATTACHMENTS_DIR: join(workDir, `${name}-attachments`),
      EXPORTS_DIR: join(workDir, `${name}-exports`),
      // The suite never reaches the network: the upstream data sources stay off (decision 035).
      KEV_URL: "off",
      EPSS_URL: "off",
      WPORG_API_URL: "off",
      ...env,
    },
    stdio: ["ignore", output, output],
  });
  const exited = once(child, "exit");
  const stop = () => stopGroup(child, exited);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited at start:\n${readFileSync(log, "utf8")}`);
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { name, port, origin, log, stop };
    await sleep(200);
  }
  await stop();
  throw new Error(`${name} was not ready within 180 s:\n${readFileSync(log, "utf8")}`);
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>) {
  const group = child.pid;
  if (group === undefined || child.exitCode !== null) return;
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-group, name);
      return true;
    } catch {
      return false;
    }
  };
  signal("SIGTERM");
  const deadline = Date.now() + 15_000;
  while (signal(0) && Date.now() < deadline) await sleep(100);
  if (signal(0)) signal("SIGKILL");
  await exited;
}

export interface Nginx {
  port: number;
  origin: string;
  stop(): Promise<void>;
}

/** A certificate and its key (PEM files) for nginx to terminate TLS with. */
export interface TlsFiles {
  certificate: string;
  key: string;
}

/**
 * Debian's nginx on a free loopback port, round-robin to `upstreams`, run as the current user with its
 * configuration, pid, logs and temporary files in `dir`. It passes the client's address in
 * X-Forwarded-For (replacing any the client sent) and names the instance that answered in X-Upstream.
 * With `tls`, it serves HTTPS with HTTP/2, as a deployment's TLS proxy does (README, "Production checklist").
 */
export async function startNginx(
  upstreams: Pick<Instance, "port">[],
  dir: string,
  port: number,
  { tls }: { tls?: TlsFiles } = {},
): Promise<Nginx> {
  if (!existsSync(NGINX))
    throw new Error(
      `${NGINX} is missing: install Debian's nginx (apt-get install -y nginx), as .ci/run does`,
    );
  for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
    mkdirSync(join(dir, sub), { recursive: true });
  const user = userInfo();
  const config = `
${user.uid === 0 ? `user ${user.username};` : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 25m;
  upstream pressguard {
${upstreams.map((instance) => `    server 127.0.0.1:${instance.port};`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port}${tls ? " ssl http2" : ""};
${tls ? `    ssl_certificate ${tls.certificate};\n    ssl_certificate_key ${tls.key};\n` : ""}    location / {
      proxy_pass http://pressguard;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
  writeFileSync(join(dir, "nginx.conf"), config);
  const log = openSync(join(dir, "nginx.out"), "a");
  const child = spawn(
    NGINX,
    ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log"), "-g", "daemon off;"],
    {
      stdio: ["ignore", log, log],
    },
  );
  const exited = once(child, "exit");
  const origin = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(
        `nginx exited:\n${readFileSync(join(dir, "nginx.out"), "utf8")}\n${readFileSync(join(dir, "error.log"), "utf8")}`,
      );
    if (await answersHealthz(origin)) return { port, origin, stop };
    await sleep(100);
  }
  await stop();
  throw new Error("nginx did not answer within 20 s");
}

/** `/healthz` answers 200 at `origin`; over HTTPS the proxy's own (self-signed) certificate is accepted. */
function answersHealthz(origin: string): Promise<boolean> {
  return new Promise((done) => {
    const request = (origin.startsWith("https:") ? httpsGet : httpGet)(
      `${origin}/healthz`,
      { rejectUnauthorized: false },
      (response) => {
        response.resume();
        done(response.statusCode === 200);
      },
    );
    request.on("error", () => done(false));
  });
}

export function makeWorkDir() {
  return mkdtempSync(join(tmpdir(), "pressguard-multi-"));
}

export function removeWorkDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

/** The suite's figures for CI's summary (scripts/ci-summary.mjs). */
const FIGURES_FILE = resolve(process.env.MULTI_FIGURES_FILE ?? "reports/multi-figures.json");

export function recordFigures(figures: Record<string, number | string | boolean>) {
  mkdirSync(resolve(FIGURES_FILE, ".."), { recursive: true });
  const all = existsSync(FIGURES_FILE) ? JSON.parse(readFileSync(FIGURES_FILE, "utf8")) : {};
  writeFileSync(FIGURES_FILE, `${JSON.stringify({ ...all, ...figures }, null, 2)}\n`);
  console.info(`[multi] ${JSON.stringify(figures)}`);
}
