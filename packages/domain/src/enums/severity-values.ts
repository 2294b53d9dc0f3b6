/** CVSS v3.x qualitative severity rating scale (FIRST CVSS v3.1 specification, section 5). */
export const SEVERITIES = [
  { value: "none", label: "None", min: 0, max: 0 },
  { value: "low", label: "Low", min: 0.1, max: 3.9 },
  { value: "medium", label: "Medium", min: 4, max: 6.9 },
  { value: "high", label: "High", min: 7, max: 8.9 },
  { value: "critical", label: "Critical", min: 9, max: 10 },
] as const;

export const severityByValue: ReadonlyMap<string, (typeof SEVERITIES)[number]> = new Map(
  SEVERITIES.map((severity) => [severity.value, severity]),
);

/** The band of a CVSS base score (0.0–10.0, one decimal). Scores outside the range are clamped. */
export function severityFromScore(score: number): (typeof SEVERITIES)[number]["value"] {
  if (score >= 9) return "critical";
  if (score >= 7) return "high";
  if (score >= 4) return "medium";
  if (score > 0) return "low";
  return "none";
}
