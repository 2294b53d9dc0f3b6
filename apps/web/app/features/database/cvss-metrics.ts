/** CVSS 3.x base metric names and values in words (FIRST CVSS v3.1 specification §2). */
export const CVSS_METRICS: Record<string, { name: string; values: Record<string, string> }> = {
  AV: { name: "Attack vector", values: { N: "Network", A: "Adjacent", L: "Local", P: "Physical" } },
  AC: { name: "Attack complexity", values: { L: "Low", H: "High" } },
  PR: { name: "Privileges required", values: { N: "None", L: "Low", H: "High" } },
  UI: { name: "User interaction", values: { N: "None", R: "Required" } },
  S: { name: "Scope", values: { U: "Unchanged", C: "Changed" } },
  C: { name: "Confidentiality", values: { H: "High", L: "Low", N: "None" } },
  I: { name: "Integrity", values: { H: "High", L: "Low", N: "None" } },
  A: { name: "Availability", values: { H: "High", L: "Low", N: "None" } },
};
