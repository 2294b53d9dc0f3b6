import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpuMicrosecondsOf } from "./support.ts";

const paths = readFileSync("/tmp/vpaths.txt", "utf8").trim().split("\n");
const child = spawn(
  process.execPath,
  ["--import", "tsx", "bench/bare-render.ts", "3418", "http://127.0.0.1:3417"],
  { env: { ...process.env, NODE_ENV: "production" }, stdio: "inherit" },
);
for (;;) {
  try {
    await fetch("http://127.0.0.1:3418/database/about-data");
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 200));
  }
}
const get = (p: string) => fetch(`http://127.0.0.1:3418${p}`).then((r) => r.arrayBuffer());
for (const p of paths) await get(p);
for (let round = 0; round < 7; round++) {
  const before = cpuMicrosecondsOf(child.pid!);
  let i = 0;
  const total = paths.length * 10;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (i < total) await get(paths[i++ % paths.length]!);
    }),
  );
  console.info(
    `round ${round}: ${((cpuMicrosecondsOf(child.pid!) - before) / 1000 / total).toFixed(2)} ms CPU per page`,
  );
}
child.kill("SIGTERM");
