import type { Severity } from "../enums/severity.ts";
import { severityFromScore } from "../enums/severity-values.ts";

/**
 * CVSS v3.0 / v3.1 vector parsing and base score, exactly as the FIRST specifications define them
 * (https://www.first.org/cvss/v3.1/specification-document §7.1, §7.4 and Appendix A; v3.0 §8.1).
 * Temporal and environmental metrics are validated when present but do not change the base score.
 */

const BASE_METRICS = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  PR: { N: 1, L: 1, H: 1 },
  UI: { N: 0.85, R: 0.62 },
  S: { U: 1, C: 1 },
  C: { H: 0.56, L: 0.22, N: 0 },
  I: { H: 0.56, L: 0.22, N: 0 },
  A: { H: 0.56, L: 0.22, N: 0 },
} as const;

/** Privileges Required depends on Scope: PR:L is 0.62 unchanged / 0.68 changed, PR:H 0.27 / 0.5. */
const PRIVILEGES_REQUIRED = {
  U: { N: 0.85, L: 0.62, H: 0.27 },
  C: { N: 0.85, L: 0.68, H: 0.5 },
} as const;

const OPTIONAL_METRICS: Record<string, readonly string[]> = {
  E: ["X", "H", "F", "P", "U"],
  RL: ["X", "U", "W", "T", "O"],
  RC: ["X", "C", "R", "U"],
  CR: ["X", "H", "M", "L"],
  IR: ["X", "H", "M", "L"],
  AR: ["X", "H", "M", "L"],
  MAV: ["X", "N", "A", "L", "P"],
  MAC: ["X", "L", "H"],
  MPR: ["X", "N", "L", "H"],
  MUI: ["X", "N", "R"],
  MS: ["X", "U", "C"],
  MC: ["X", "N", "L", "H"],
  MI: ["X", "N", "L", "H"],
  MA: ["X", "N", "L", "H"],
};

type BaseMetric = keyof typeof BASE_METRICS;
export type CvssBaseMetrics = { [Metric in BaseMetric]: keyof (typeof BASE_METRICS)[Metric] };

export interface CvssScore {
  version: "3.0" | "3.1";
  /** The vector as given, trimmed. */
  vector: string;
  metrics: CvssBaseMetrics;
  baseScore: number;
  impactSubScore: number;
  exploitabilitySubScore: number;
  severity: Severity;
}

export type CvssParseResult = ({ ok: true } & CvssScore) | { ok: false; error: string };

/** Parses a "CVSS:3.x/AV:…/…" vector and computes its base score; never throws. */
export function parseCvssVector(input: string): CvssParseResult {
  const vector = input.trim();
  const parts = vector.split("/");
  const head = parts.shift();
  if (head !== "CVSS:3.0" && head !== "CVSS:3.1") {
    return { ok: false, error: 'A CVSS vector must start with "CVSS:3.0/" or "CVSS:3.1/".' };
  }
  const version = head === "CVSS:3.0" ? "3.0" : "3.1";
  const seen = new Map<string, string>();
  for (const part of parts) {
    const [metric, value, extra] = part.split(":");
    if (!metric || !value || extra !== undefined) return { ok: false, error: `Malformed metric "${part}".` };
    if (seen.has(metric)) return { ok: false, error: `Metric ${metric} is given more than once.` };
    const allowed =
      metric in BASE_METRICS ? Object.keys(BASE_METRICS[metric as BaseMetric]) : OPTIONAL_METRICS[metric];
    if (!allowed) return { ok: false, error: `Unknown metric ${metric}.` };
    if (!allowed.includes(value)) return { ok: false, error: `Invalid value ${value} for metric ${metric}.` };
    seen.set(metric, value);
  }
  const missing = Object.keys(BASE_METRICS).filter((metric) => !seen.has(metric));
  if (missing.length > 0) return { ok: false, error: `Missing base metrics: ${missing.join(", ")}.` };
  const metrics = Object.fromEntries(
    Object.keys(BASE_METRICS).map((metric) => [metric, seen.get(metric)]),
  ) as CvssBaseMetrics;
  return { ok: true, version, vector, metrics, ...baseScore(metrics, version) };
}

/** The base score of a valid vector, or null when the vector is invalid. */
export function cvssBaseScore(vector: string): number | null {
  const result = parseCvssVector(vector);
  return result.ok ? result.baseScore : null;
}

function baseScore(metrics: CvssBaseMetrics, version: "3.0" | "3.1") {
  const roundUp = version === "3.1" ? roundUp31 : roundUp30;
  const scopeChanged = metrics.S === "C";
  const iss =
    1 - (1 - BASE_METRICS.C[metrics.C]) * (1 - BASE_METRICS.I[metrics.I]) * (1 - BASE_METRICS.A[metrics.A]);
  const impact = scopeChanged ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss;
  const exploitability =
    8.22 *
    BASE_METRICS.AV[metrics.AV] *
    BASE_METRICS.AC[metrics.AC] *
    PRIVILEGES_REQUIRED[metrics.S][metrics.PR] *
    BASE_METRICS.UI[metrics.UI];
  let score: number;
  if (impact <= 0) score = 0;
  else if (scopeChanged) score = roundUp(Math.min(1.08 * (impact + exploitability), 10));
  else score = roundUp(Math.min(impact + exploitability, 10));
  return {
    baseScore: score,
    impactSubScore: Math.round(Math.max(impact, 0) * 10) / 10,
    exploitabilitySubScore: Math.round(exploitability * 10) / 10,
    severity: severityFromScore(score),
  };
}

/**
 * CVSS v3.1 Appendix A Roundup: the smallest number with one decimal that is >= the input, computed
 * on integers so that floating-point noise (e.g. 4.000000000000001) does not round up to 4.1.
 */
export function roundUp31(value: number): number {
  const integer = Math.round(value * 100_000);
  if (integer % 10_000 === 0) return integer / 100_000;
  return (Math.floor(integer / 10_000) + 1) / 10;
}

/** CVSS v3.0 §8.1 Round up: the smallest number with one decimal that is >= the input. */
export function roundUp30(value: number): number {
  return Math.ceil(value * 10) / 10;
}
