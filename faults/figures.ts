import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The suite's figures, one section per fault, for CI's summary (scripts/ci-summary.mjs). */
const FIGURES_FILE = resolve(process.env.FAULTS_FIGURES_FILE ?? "reports/fault-figures.json");

export function recordFigures(section: string, figures: Record<string, number | string | boolean>) {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  const all = existsSync(FIGURES_FILE) ? JSON.parse(readFileSync(FIGURES_FILE, "utf8")) : {};
  all[section] = figures;
  writeFileSync(FIGURES_FILE, `${JSON.stringify(all, null, 2)}\n`);
  console.info(`[faults] ${section}: ${JSON.stringify(figures)}`);
}
