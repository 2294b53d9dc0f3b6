import { describe, expect, it } from "vitest";
import { COMPONENT_KINDS, ComponentKind } from "./component-kinds.ts";
import { COUNTRIES, CountryCode, countryByCode } from "./countries.ts";
import { OWASP_CATEGORIES, OwaspCode, owaspCategoryByCode } from "./owasp.ts";
import { PLANS, planByValue } from "./plans.ts";
import { WORDPRESS_ROLES, WordPressRoleCode, wordPressRoleByCode } from "./roles.ts";
import { SEVERITIES, Severity, severityFromScore } from "./severity.ts";
import { SOFTWARE_TYPES } from "./software-types.ts";
import { VERSION_PREFIXES, VersionPrefix } from "./version-prefixes.ts";
import {
  VULNERABILITY_TYPES,
  VulnerabilityTypeCode,
  VulnerabilityTypeSlug,
  vulnerabilityTypeByCode,
  vulnerabilityTypeBySlug,
} from "./vulnerability-types.ts";

describe("enumerations of spec §3", () => {
  it("labels the component kinds as WordPress plugin, theme and core", () => {
    expect(COMPONENT_KINDS.map((kind) => [kind.value, kind.label])).toEqual([
      ["plugin", "WordPress plugin"],
      ["theme", "WordPress theme"],
      ["core", "WordPress core"],
    ]);
    expect(ComponentKind.safeParse("core").success).toBe(true);
    expect(ComponentKind.safeParse("widget").success).toBe(false);
  });

  it("codes the WordPress roles 1 to 9 as the specification lists them", () => {
    expect(WORDPRESS_ROLES.map((role) => [role.code, role.label])).toEqual([
      [1, "Unauthenticated"],
      [2, "Subscriber"],
      [3, "Contributor"],
      [4, "Author"],
      [5, "Editor"],
      [6, "Administrator"],
      [7, "Super admin"],
      [8, "Shop manager"],
      [9, "Customer"],
    ]);
    expect(wordPressRoleByCode.get(8)?.slug).toBe("shop_manager");
    expect(WordPressRoleCode.safeParse(9).success).toBe(true);
    expect(WordPressRoleCode.safeParse(0).success).toBe(false);
    expect(WordPressRoleCode.safeParse(10).success).toBe(false);
  });

  it("prices the free plan 0.00 and labels premium Paid at 75.00", () => {
    expect(PLANS.map((plan) => plan.value)).toEqual(["free", "premium", "both"]);
    expect(planByValue.get("free")?.price).toBe("0.00");
    expect(planByValue.get("premium")).toMatchObject({ label: "Paid", price: "75.00" });
  });

  it("lists the software types and version prefixes", () => {
    expect(SOFTWARE_TYPES.map((type) => type.value)).toEqual(["plugin", "theme"]);
    expect(VERSION_PREFIXES.map((prefix) => [prefix.value, prefix.label])).toEqual([
      ["<=", "Less than or equal"],
      ["<", "Less than"],
      ["", "Specific version"],
    ]);
    expect(VersionPrefix.safeParse("").success).toBe(true);
    expect(VersionPrefix.safeParse(">=").success).toBe(false);
  });

  it("codes the OWASP Top 10 (2021) A1 to A10 as 41 to 50", () => {
    expect(OWASP_CATEGORIES.map((category) => category.code)).toEqual([
      41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
    ]);
    expect(OWASP_CATEGORIES.map((category) => category.key)).toEqual(
      Array.from({ length: 10 }, (_, index) => `A${index + 1}`),
    );
    expect(owaspCategoryByCode.get(41)?.label).toBe("Broken Access Control");
    expect(owaspCategoryByCode.get(43)?.label).toBe("Injection");
    expect(owaspCategoryByCode.get(50)?.label).toBe("Server-Side Request Forgery (SSRF)");
    expect(OwaspCode.safeParse(40).success).toBe(false);
  });

  it("codes 42 vulnerability types with the codes the specification fixes", () => {
    expect(VULNERABILITY_TYPES.map((type) => type.code)).toEqual(
      Array.from({ length: 42 }, (_, index) => index + 1),
    );
    expect(new Set(VULNERABILITY_TYPES.map((type) => type.slug)).size).toBe(42);
    expect(new Set(VULNERABILITY_TYPES.map((type) => type.label)).size).toBe(42);
    expect(vulnerabilityTypeByCode.get(1)?.label).toBe("SQL Injection");
    expect(vulnerabilityTypeByCode.get(2)?.label).toContain("XSS");
    expect(vulnerabilityTypeByCode.get(6)?.label).toContain("CSRF");
    expect(vulnerabilityTypeByCode.get(10)?.label).toBe("Unknown");
    expect(vulnerabilityTypeByCode.get(29)?.label).toBe("Other");
    expect(vulnerabilityTypeByCode.get(42)?.label).toBe("Race Condition");
    expect(vulnerabilityTypeBySlug.get("server-side-request-forgery")?.owasp).toBe(50);
    for (const type of VULNERABILITY_TYPES) {
      expect(type.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      if (type.owasp !== null) expect(owaspCategoryByCode.has(type.owasp)).toBe(true);
    }
    expect(VulnerabilityTypeCode.safeParse(42).success).toBe(true);
    expect(VulnerabilityTypeCode.safeParse(43).success).toBe(false);
    expect(VulnerabilityTypeSlug.safeParse("sql-injection").success).toBe(true);
  });

  it("lists every ISO 3166-1 alpha-2 country once", () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(249);
    for (const country of COUNTRIES) expect(country.code).toMatch(/^[A-Z]{2}$/);
    expect(countryByCode.get("EE")?.name).toBe("Estonia");
    expect(countryByCode.get("US")?.name).toBe("United States");
    expect(CountryCode.safeParse("DE").success).toBe(true);
    expect(CountryCode.safeParse("XX").success).toBe(false);
    expect(CountryCode.safeParse("de").success).toBe(false);
  });
});

describe("severityFromScore", () => {
  it.each([
    [0, "none"],
    [0.1, "low"],
    [3.9, "low"],
    [4, "medium"],
    [6.9, "medium"],
    [7, "high"],
    [8.9, "high"],
    [9, "critical"],
    [10, "critical"],
  ] as const)("rates %s as %s", (score, severity) => {
    expect(severityFromScore(score)).toBe(severity);
  });

  it("has one band per qualitative rating", () => {
    expect(SEVERITIES.map((band) => band.value)).toEqual(Severity.options);
  });
});
