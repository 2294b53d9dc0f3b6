import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = join(import.meta.dirname, "ci-summary.mjs");
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function summarise(report: object) {
  const directory = mkdtempSync(join(tmpdir(), "pressguard-ci-summary-"));
  directories.push(directory);
  const file = join(directory, "report.json");
  writeFileSync(file, JSON.stringify(report));
  const run = spawnSync(process.execPath, [SCRIPT, file], { encoding: "utf8" });
  return { status: run.status, lastLine: run.stdout.trim().split("\n").at(-1) };
}

describe("the CI summary", () => {
  it("counts a Vitest file whose setup failed (every test skipped) as a failure", () => {
    const report = {
      success: false,
      numPassedTests: 0,
      numFailedTests: 0,
      numPendingTests: 7,
      numTodoTests: 0,
      numFailedTestSuites: 2,
    };
    expect(summarise(report)).toEqual({ status: 1, lastLine: "0 passed, 1 failed, 7 skipped" });
  });

  it("passes a successful Vitest run", () => {
    const report = {
      success: true,
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 0,
      numTodoTests: 0,
      numFailedTestSuites: 0,
    };
    expect(summarise(report)).toEqual({ status: 0, lastLine: "3 passed, 0 failed, 0 skipped" });
  });
});
