/** OWASP Top 10 (2021) categories, coded 41–50 (spec §3 "OWASP categories A1 to A10, coded 41 to 50"). */
export const OWASP_CATEGORIES = [
  { code: 41, key: "A1", id: "A01:2021", label: "Broken Access Control" },
  { code: 42, key: "A2", id: "A02:2021", label: "Cryptographic Failures" },
  { code: 43, key: "A3", id: "A03:2021", label: "Injection" },
  { code: 44, key: "A4", id: "A04:2021", label: "Insecure Design" },
  { code: 45, key: "A5", id: "A05:2021", label: "Security Misconfiguration" },
  { code: 46, key: "A6", id: "A06:2021", label: "Vulnerable and Outdated Components" },
  { code: 47, key: "A7", id: "A07:2021", label: "Identification and Authentication Failures" },
  { code: 48, key: "A8", id: "A08:2021", label: "Software and Data Integrity Failures" },
  { code: 49, key: "A9", id: "A09:2021", label: "Security Logging and Monitoring Failures" },
  { code: 50, key: "A10", id: "A10:2021", label: "Server-Side Request Forgery (SSRF)" },
] as const;

export type OwaspCategory = (typeof OWASP_CATEGORIES)[number];

export const owaspCategoryByCode: ReadonlyMap<number, OwaspCategory> = new Map(
  OWASP_CATEGORIES.map((category) => [category.code, category]),
);
