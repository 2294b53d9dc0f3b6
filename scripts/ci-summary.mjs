#!/usr/bin/env node
// Prints one line per runner report and a final plain "N passed, N failed" line that CI reads.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.info(`${file}: missing (that runner did not finish)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  let p;
  let f;
  let s;
  if ("numPassedTests" in report) {
    p = report.numPassedTests;
    // A file whose setup (beforeAll) failed reports its tests as skipped, not failed: count it.
    const failedSetups = report.success === false && report.numFailedTests === 0 ? 1 : 0;
    f = report.numFailedTests + failedSetups;
    s = report.numPendingTests + (report.numTodoTests ?? 0);
  } else {
    p = report.stats.expected;
    f = report.stats.unexpected + report.stats.flaky;
    s = report.stats.skipped;
  }
  console.info(`${file}: ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
// The fault suite's figures (faults/figures.ts): acknowledged, present, duplicated, seconds to recover…
const figuresFile = "reports/fault-figures.json";
if (existsSync(figuresFile)) {
  for (const [fault, figures] of Object.entries(JSON.parse(readFileSync(figuresFile, "utf8")))) {
    const line = Object.entries(figures).map(([name, value]) => `${name} ${value}`);
    console.info(`faults, ${fault.replaceAll("_", " ")}: ${line.join(", ")}`);
  }
}
// The two-instance suite's figures (multi/instances.ts): seconds to start, to refresh, mails sent…
const multiFile = "reports/multi-figures.json";
if (existsSync(multiFile)) {
  const line = Object.entries(JSON.parse(readFileSync(multiFile, "utf8"))).map(
    ([name, value]) => `${name} ${value}`,
  );
  console.info(`two instances: ${line.join(", ").replaceAll("_", " ")}`);
}
console.info(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
