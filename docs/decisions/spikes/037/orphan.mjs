// What happens to the postgres child when its Node parent is SIGKILLed (the stall watchdog does that),
// and what the next start meets.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { startCluster, stopCluster } from "./ep.mjs";
const [dir, port] = process.argv.slice(2);
if (process.argv[4] === "child") {
  const c = await startCluster(dir, Number(port));
  console.log("postmaster", c.child.pid);
  setInterval(() => {}, 1000);
} else {
  const parent = spawn(process.execPath, ["orphan.mjs", dir, port, "child"], { stdio: ["ignore", "pipe", "inherit"] });
  const pm = await new Promise((r) => parent.stdout.on("data", (d) => { const m = String(d).match(/postmaster (\d+)/); if (m) r(Number(m[1])); }));
  parent.kill("SIGKILL");
  await new Promise((r) => setTimeout(r, 2000));
  let alive = true; try { process.kill(pm, 0); } catch { alive = false; }
  console.log("parent SIGKILLed; postmaster still alive after 2 s:", alive, "; postmaster.pid says", readFileSync(`${dir}/postmaster.pid`, "utf8").split("\n")[0]);
  try { const c = await startCluster(dir, Number(port)); console.log("second start: ok (unexpected)"); await stopCluster(c.child); }
  catch (e) { console.log("second start:", e.message.split("\n").filter((l) => /FATAL|HINT|exited/.test(l)).join(" | ").slice(0, 400)); }
  if (alive) { process.kill(pm, "SIGINT"); }
}
